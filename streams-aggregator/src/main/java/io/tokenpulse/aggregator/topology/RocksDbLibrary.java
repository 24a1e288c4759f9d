package io.tokenpulse.aggregator.topology;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's native library, loaded from a copy kept in a cache dir. RocksDB's own loader copies the
 * 15 MB library out of the jar into the temp dir at every start: ~0.1 s of CPU, and a file left in
 * {@code /tmp} by every process killed before it exits. The copy here is made once per build of the
 * library (named by its CRC in the jar). Anything unusual (no jar, a cache that cannot be written, a
 * failed load) leaves the loading to RocksDB's own loader, as before.
 */
final class RocksDbLibrary {
    private static final Logger LOG = LoggerFactory.getLogger(RocksDbLibrary.class);

    private RocksDbLibrary() {}

    /** {@code ~/.cache/tokenpulse}. */
    static Path defaultCacheDir() {
        return Path.of(System.getProperty("user.home"), ".cache", "tokenpulse");
    }

    /** Loads the library from under {@code cacheDir}, copying it there first if it is not there yet. */
    static void loadFrom(Path cacheDir) {
        try {
            URL resource = RocksDB.class.getClassLoader().getResource(Environment.getJniLibraryFileName("rocksdb"));
            URLConnection connection = resource == null ? null : resource.openConnection();
            if (!(connection instanceof JarURLConnection jar)) {
                return;
            }
            Path dir = cacheDir.resolve(
                    "rocksdb-" + Long.toHexString(jar.getJarEntry().getCrc()));
            // the file name RocksDB.loadLibrary(paths) looks for in each path
            Path library = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
            if (!Files.exists(library)) {
                copy(jar, library);
            }
            RocksDB.loadLibrary(List.of(dir.toString()));
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            LOG.debug(
                    "RocksDB's library not loaded from {} ({}): RocksDB's own loader copies it",
                    cacheDir,
                    e.toString());
        }
    }

    /** Written under a name of its own and renamed: a start beside this one never sees half a file. */
    private static void copy(JarURLConnection jar, Path library) throws IOException {
        Files.createDirectories(library.getParent());
        Path partial = Files.createTempFile(library.getParent(), "partial-", ".so");
        try (InputStream in = jar.getInputStream()) {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
