package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Classes that libraries load by name at run time, loaded from the shaded jar itself (a class
 * loader over {@code cli/target/tokenpulse.jar} alone, whose parent sees only the JDK): a service
 * provider, codec or filter left out by the shading or a test-scoped dependency fails here, not in
 * a user's run.
 */
class ShadedJarIT {
    static URLClassLoader jar;

    @BeforeAll
    static void open() throws IOException {
        assertThat(Tokenpulse.JAR).as("run mvn package first").exists();
        jar = new URLClassLoader(new URL[] {Tokenpulse.JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    @AfterAll
    static void close() throws IOException {
        jar.close();
    }

    /**
     * Loads a class and resolves what its declaration names (fields, methods, constructors), which is
     * where a missing dependency shows: e.g. Jinjava's FromYamlFilter, whose static YAMLMapper field
     * needs jackson-dataformat-yaml.
     */
    private static String problemLoading(String className) {
        try {
            Class<?> type = Class.forName(className, false, jar);
            type.getDeclaredFields();
            type.getDeclaredMethods();
            type.getDeclaredConstructors();
            return null;
        } catch (ClassNotFoundException | LinkageError e) {
            return className + ": " + e;
        }
    }

    @Test
    void everyServiceProviderOfAServiceInTheJarLoads() throws IOException {
        List<String> problems = new ArrayList<>();
        int providers = 0;
        try (JarFile file = new JarFile(Tokenpulse.JAR.toFile())) {
            for (JarEntry entry : file.stream().toList()) {
                String name = entry.getName();
                if (entry.isDirectory() || !name.startsWith("META-INF/services/") || name.indexOf('/', 18) >= 0) {
                    continue;
                }
                String service = name.substring("META-INF/services/".length());
                // A service whose interface is not in the jar is never looked up (e.g. Netty's BlockHound
                // integration, for when BlockHound is on the class path); its providers may be absent too.
                if (problemLoading(service) != null) {
                    continue;
                }
                try (BufferedReader reader =
                        new BufferedReader(new InputStreamReader(file.getInputStream(entry), StandardCharsets.UTF_8))) {
                    for (String line : reader.lines().toList()) {
                        String provider = line.replaceAll("#.*", "").trim();
                        if (!provider.isEmpty()) {
                            providers++;
                            String problem = problemLoading(provider);
                            if (problem != null) {
                                problems.add(service + " -> " + problem);
                            }
                        }
                    }
                }
            }
        }
        assertThat(providers).as("service providers found in the jar").isGreaterThan(10);
        assertThat(problems).isEmpty();
    }

    @Test
    void kafkasCompressionCodecsAndTheirNativeLibrariesLoad() throws Exception {
        // compression.type=zstd|lz4|snappy: Kafka's clients need these libraries only when asked for them
        for (String codec :
                List.of("com.github.luben.zstd.Zstd", "net.jpountz.lz4.LZ4Factory", "org.xerial.snappy.Snappy")) {
            assertThat(problemLoading(codec)).isNull();
        }
        byte[] text = "tokenpulse tokenpulse tokenpulse tokenpulse".getBytes(StandardCharsets.UTF_8);
        // zstd and snappy bring native libraries inside their jars: compressing once proves they load
        Class<?> zstd = Class.forName("com.github.luben.zstd.Zstd", true, jar);
        byte[] zstdBytes = (byte[]) zstd.getMethod("compress", byte[].class).invoke(null, (Object) text);
        assertThat(zstdBytes).isNotEmpty();
        Class<?> snappy = Class.forName("org.xerial.snappy.Snappy", true, jar);
        byte[] snappyBytes = (byte[]) snappy.getMethod("compress", byte[].class).invoke(null, (Object) text);
        assertThat(snappyBytes).isNotEmpty();
        Object lz4 = Class.forName("net.jpountz.lz4.LZ4Factory", true, jar)
                .getMethod("fastestInstance")
                .invoke(null);
        assertThat(lz4).isNotNull();
    }

    @Test
    void jinjavaStartsWithEveryDefaultFilterTagAndFunction() throws Exception {
        // new Jinjava() instantiates every class of its filter, tag, function and expression-test
        // registries, as a chat template's first use does
        // its expression factory loads classes through the context class loader: the jar's, as in the product
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(jar);
        try {
            Object jinjava = Class.forName("com.hubspot.jinjava.Jinjava", true, jar)
                    .getConstructor()
                    .newInstance();
            Object rendered = jinjava.getClass()
                    .getMethod("render", String.class, java.util.Map.class)
                    .invoke(jinjava, "{{ 'a: 1' | fromyaml | tojson }}", java.util.Map.of());
            assertThat(rendered).isEqualTo("{\"a\":1}");
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * The jar carries native libraries for Linux (glibc) on x86-64 and arm64 only (cli/pom.xml's shade
     * filters), and stays at most 100 MB (245 MB with every platform's libraries and DuckDB; 124.9 MB
     * with Linux's DuckDB; 95.6 MB measured with parquet-java instead): RocksDB's and the Parquet
     * codecs' libraries load from it on this machine.
     */
    @Test
    void rocksdbAndTheParquetCodecsLoadTheirNativeLibrariesFromAJarOfLinuxOnesOfAtMost100Mb() throws Exception {
        long size = java.nio.file.Files.size(Tokenpulse.JAR);
        System.out.printf("ShadedJarIT: %s is %.1f MB%n", Tokenpulse.JAR, size / 1e6);
        assertThat(size).as("jar size in bytes").isLessThanOrEqualTo(100_000_000L);
        try (JarFile file = new JarFile(Tokenpulse.JAR.toFile())) {
            List<String> foreign = file.stream()
                    .map(JarEntry::getName)
                    .filter(n -> n.matches(".*\\.(so|dll|dylib|jnilib|a)$"))
                    .filter(n -> !(n.matches("(?i).*(linux|epoll).*")
                            && n.matches("(?i).*(x86[-_]64|amd64|aarch64|arm64|linux64).*")
                            && !n.contains("musl")))
                    .toList();
            assertThat(foreign)
                    .as("native libraries of platforms other than Linux (glibc) x86-64 and arm64")
                    .isEmpty();
            assertThat(file.getEntry("org/duckdb/DuckDBDriver.class"))
                    .as("DuckDB")
                    .isNull();
        }
        Class<?> rocksdb = Class.forName("org.rocksdb.RocksDB", true, jar);
        rocksdb.getMethod("loadLibrary").invoke(null);
        // A page through each codec of the hub's Parquet files, both ways (snappy and zstd load natives).
        Class<?> names = Class.forName("org.apache.parquet.hadoop.metadata.CompressionCodecName", true, jar);
        Object codecs = Class.forName("io.tokenpulse.producer.parquet.ParquetCodecs", true, jar)
                .getField("INSTANCE")
                .get(null);
        Class<?> bytesInput = Class.forName("org.apache.parquet.bytes.BytesInput", true, jar);
        String factory = "org.apache.parquet.compression.CompressionCodecFactory";
        Class<?> compressors = Class.forName(factory + "$BytesInputCompressor", true, jar);
        Class<?> decompressors = Class.forName(factory + "$BytesInputDecompressor", true, jar);
        byte[] page = "a page of a Parquet file, a page of a Parquet file".getBytes(StandardCharsets.UTF_8);
        for (String codec : List.of("SNAPPY", "ZSTD", "GZIP", "LZ4_RAW")) {
            Object name = names.getMethod("valueOf", String.class).invoke(null, codec);
            Object compressor =
                    codecs.getClass().getMethod("getCompressor", names).invoke(codecs, name);
            Object decompressor =
                    codecs.getClass().getMethod("getDecompressor", names).invoke(codecs, name);
            Object compressed = compressors
                    .getMethod("compress", bytesInput)
                    .invoke(
                            compressor,
                            bytesInput.getMethod("from", byte[].class).invoke(null, (Object) page));
            Object back = decompressors
                    .getMethod("decompress", bytesInput, int.class)
                    .invoke(decompressor, compressed, page.length);
            assertThat((byte[]) bytesInput.getMethod("toByteArray").invoke(back))
                    .as(codec)
                    .isEqualTo(page);
        }
    }
}
