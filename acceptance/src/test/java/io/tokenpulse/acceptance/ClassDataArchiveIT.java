package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class-data archive ({@code cli/target/tokenpulse.jsa}) after a jar newer than it, as a
 * plain {@code mvn package} leaves it: the next start makes it again, and two starts at once make it
 * once, the second starting without it instead of waiting. Run on a copy of the launcher and the jar in
 * a folder of their own, so the suite's other starts keep the real archive.
 */
class ClassDataArchiveIT {
    static final String ARCHIVE_NOTICE = "tokenpulse: building the class-data archive";

    @TempDir
    Path root;

    @TempDir
    Path home;

    @Test
    void aJarNewerThanItsArchiveMakesTheNextStartRebuildItOnceAcrossConcurrentStarts() throws Exception {
        Path launcher = root.resolve("tokenpulse");
        Files.copy(Tokenpulse.LAUNCHER, launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Path jar = root.resolve("cli/target/tokenpulse.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(Tokenpulse.JAR, jar);
        Path archive = root.resolve("cli/target/tokenpulse.jsa");
        Path realArchive = Tokenpulse.JAR.resolveSibling("tokenpulse.jsa");
        if (Files.exists(realArchive)) {
            Files.copy(realArchive, archive);
        }
        // the jar rebuilt after its archive was made
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(1)));

        Process first = start(launcher, Map.of(), "first");
        Process second = start(launcher, Map.of(), "second");
        assertThat(first.waitFor(5, TimeUnit.MINUTES)).as("first start ended").isTrue();
        assertThat(second.waitFor(5, TimeUnit.MINUTES)).as("second start ended").isTrue();
        assertThat(List.of(first.exitValue(), second.exitValue())).containsOnly(0);
        long notices = List.of("first", "second").stream()
                .filter(name -> stderr(name).contains(ARCHIVE_NOTICE))
                .count();
        assertThat(notices).as("starts that made the archive").isEqualTo(1);
        assertThat(Files.getLastModifiedTime(archive)).isGreaterThan(Files.getLastModifiedTime(jar));

        // -Xshare:on: the JVM fails rather than start without an archive it cannot map
        Process check = start(launcher, Map.of("TOKENPULSE_JAVA_OPTS", "-Xshare:on"), "check");
        assertThat(check.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(check.exitValue()).as(stderr("check")).isZero();
        assertThat(stderr("check")).isEmpty();
    }

    private Process start(Path launcher, Map<String, String> env, String name) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--version")
                .directory(root.toFile())
                .redirectOutput(root.resolve(name + ".out").toFile())
                .redirectError(root.resolve(name + ".err").toFile());
        builder.environment().put("HOME", home.toString());
        builder.environment().remove("TOKENPULSE_JAR");
        builder.environment().remove("TOKENPULSE_JAVA_OPTS");
        builder.environment().putAll(env);
        return builder.start();
    }

    private String stderr(String name) {
        try {
            return Files.readString(root.resolve(name + ".err"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
