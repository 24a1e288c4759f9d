package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * Each case in a JVM of its own (a library loads once per JVM): where RocksDB's library was mapped
 * from, read from {@code /proc/self/maps}, and what was left in that JVM's temp dir.
 */
class RocksDbLibraryTest {

    @TempDir
    Path dir;

    @Test
    void theLibraryIsCopiedOnceIntoTheCacheAndLoadedFromThereNotFromTheTempDir() throws Exception {
        Path cache = dir.resolve("cache");
        String first = probe(cache, "first");
        List<Path> copies = libraries(cache);
        assertThat(copies).hasSize(1);
        assertThat(first).contains("mapped " + copies.get(0)).contains("put and get: ok");
        assertThat(first).doesNotContain(dir.resolve("tmp-first").toString());

        FileTime copied = Files.getLastModifiedTime(copies.get(0));
        Thread.sleep(20);
        String second = probe(cache, "second");
        assertThat(second).contains("mapped " + copies.get(0)).contains("put and get: ok");
        assertThat(Files.getLastModifiedTime(copies.get(0))).isEqualTo(copied);
        assertThat(libraries(cache)).hasSize(1);
        assertThat(second).doesNotContain(dir.resolve("tmp-second").toString());
    }

    @Test
    void aCacheThatCannotBeWrittenLeavesTheLoadingToRocksDbsOwnLoader() throws Exception {
        Path notADir = Files.writeString(dir.resolve("cache"), "a file where the cache dir would be");
        String output = probe(notADir, "fallback");
        assertThat(output).contains("mapped " + dir.resolve("tmp-fallback")).contains("put and get: ok");
    }

    /** Runs {@link Probe} in a fresh JVM whose temp dir is {@code tmp-NAME}; returns what it printed. */
    private String probe(Path cache, String name) throws IOException, InterruptedException {
        Path tmp = Files.createDirectories(dir.resolve("tmp-" + name));
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName(),
                        cache.toString(),
                        dir.resolve("db-" + name).toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
        return output;
    }

    private static List<Path> libraries(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".so")).toList();
        }
    }

    /** Loads the library as the aggregator does, uses a store, and prints where the library came from. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            RocksDbLibrary.loadFrom(Path.of(args[0]));
            try (Options options = new Options().setCreateIfMissing(true);
                    RocksDB db = RocksDB.open(options, args[1])) {
                db.put(new byte[] {1}, new byte[] {2});
                System.out.println("put and get: " + (db.get(new byte[] {1})[0] == 2 ? "ok" : "wrong"));
            }
            try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
                maps.filter(line -> line.contains("rocksdbjni"))
                        .map(line -> "mapped " + line.substring(line.indexOf('/')))
                        .distinct()
                        .forEach(System.out::println);
            }
        }
    }
}
