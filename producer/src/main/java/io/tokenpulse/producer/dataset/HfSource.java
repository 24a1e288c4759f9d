package io.tokenpulse.producer.dataset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Where the {@code hf} dataset's rows are: {@code --dataset-path} as a local file or folder, or as
 * a Hugging Face dataset id found in the local caches (no network here), narrowed to the files of
 * {@code --hf-subset} and {@code --hf-split}.
 *
 * @param datasetId the id when one was given or found, else null
 * @param description how the one-line summary names the source
 * @param files the Parquet, JSON and JSONL files to read, in path order
 */
record HfSource(String datasetId, String description, List<Path> files) {

    private static final Pattern DATASET_ID = Pattern.compile("[A-Za-z0-9][\\w.-]*/[\\w.-]+");
    private static final List<String> EXTENSIONS = List.of(".parquet", ".jsonl", ".json");

    /**
     * The caches the {@code datasets} and {@code huggingface_hub} libraries use.
     *
     * @param hub {@code $HF_HUB_CACHE}, else {@code $HF_HOME/hub}, else {@code ~/.cache/huggingface/hub}
     *     (folders {@code datasets--ORG--NAME/snapshots/REVISION/...})
     * @param datasets {@code $HF_DATASETS_CACHE}, else {@code $HF_HOME/datasets}, else
     *     {@code ~/.cache/huggingface/datasets} (folders {@code ORG___NAME/...})
     */
    record Caches(Path hub, Path datasets) {

        static Caches of(Map<String, String> env, String userHome) {
            Path home = env.get("HF_HOME") != null
                    ? Path.of(env.get("HF_HOME"))
                    : Path.of(userHome, ".cache", "huggingface");
            return new Caches(
                    env.get("HF_HUB_CACHE") != null ? Path.of(env.get("HF_HUB_CACHE")) : home.resolve("hub"),
                    env.get("HF_DATASETS_CACHE") != null
                            ? Path.of(env.get("HF_DATASETS_CACHE"))
                            : home.resolve("datasets"));
        }

        static Caches fromEnvironment() {
            return of(System.getenv(), System.getProperty("user.home"));
        }
    }

    /**
     * @param subset {@code --hf-subset}, or the dataset's default subset, or null
     * @param subsetGiven whether the user named the subset (a default that matches no folder is ignored)
     * @param split {@code --hf-split}, or the dataset's default split
     * @param splitGiven whether the user named the split (a default that matches no file is ignored)
     * @throws IllegalArgumentException naming where it looked when nothing is found
     */
    static HfSource resolve(
            Path datasetPath, String subset, boolean subsetGiven, String split, boolean splitGiven, Caches caches) {
        if (Files.isRegularFile(datasetPath)) {
            if (datasetPath.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".arrow")) {
                throw arrowFile("--dataset-path " + datasetPath + " is an Arrow file", datasetPath);
            }
            return new HfSource(null, datasetPath.toString(), List.of(datasetPath));
        }
        if (Files.isDirectory(datasetPath)) {
            return new HfSource(
                    null, datasetPath.toString(), select(datasetPath, subset, subsetGiven, split, splitGiven));
        }
        String id = datasetPath.toString();
        if (!DATASET_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("--dataset-path " + id + " is neither a file nor a folder; give a"
                    + " Parquet, JSON or JSONL file, a folder of them, or a Hugging Face dataset id like openai/gsm8k");
        }
        Path hubFolder = caches.hub().resolve("datasets--" + id.replace("/", "--"));
        Path datasetsFolder = caches.datasets().resolve(id.replace("/", "___"));
        Optional<Path> root = latestSnapshot(hubFolder.resolve("snapshots"))
                .or(() -> Files.isDirectory(datasetsFolder) ? Optional.of(datasetsFolder) : Optional.empty());
        if (root.isEmpty()) {
            throw new IllegalArgumentException("dataset " + id + " is not in the local Hugging Face cache (looked in "
                    + hubFolder + " and " + datasetsFolder + "); this machine has no network: copy its Parquet,"
                    + " JSON or JSONL files there, or give their folder as --dataset-path");
        }
        return new HfSource(
                id, id + " (" + root.get() + ")", select(root.get(), subset, subsetGiven, split, splitGiven));
    }

    private static Optional<Path> latestSnapshot(Path snapshots) {
        if (!Files.isDirectory(snapshots)) {
            return Optional.empty();
        }
        try (Stream<Path> revisions = Files.list(snapshots)) {
            return revisions.filter(Files::isDirectory).max(Comparator.comparing(HfSource::modified));
        } catch (IOException e) {
            throw DatasetFile.unreadable(snapshots, e);
        }
    }

    private static long modified(Path path) {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folder's data files of the subset and split, each narrowed only when it matches something. */
    private static List<Path> select(Path root, String subset, boolean subsetGiven, String split, boolean splitGiven) {
        List<Path> all = dataFiles(root).toList();
        if (all.isEmpty()) {
            firstArrowFile(root).ifPresent(arrow -> {
                throw arrowFile("--dataset-path " + root + " holds only .arrow files", arrow);
            });
            throw new IllegalArgumentException(
                    "--dataset-path " + root + " holds no Parquet, JSON or JSONL file (looked in every subfolder)");
        }
        List<Path> ofSubset = narrow(all, root, subset, subsetGiven, "--hf-subset", p -> hasFolder(root, p, subset));
        return narrow(ofSubset, root, split, splitGiven, "--hf-split", p -> ofSplit(root, p, split));
    }

    private static List<Path> narrow(
            List<Path> files, Path root, String value, boolean given, String flag, Predicate<Path> matches) {
        if (value == null) {
            return files;
        }
        List<Path> matching = files.stream().filter(matches).toList();
        if (!matching.isEmpty() || !given) {
            return matching.isEmpty() ? files : matching;
        }
        throw new IllegalArgumentException(flag + " " + value + " matches none of the data files under " + root + " ("
                + String.join(
                        ", ",
                        files.stream()
                                .limit(5)
                                .map(p -> root.relativize(p).toString())
                                .toList())
                + (files.size() > 5 ? ", ..." : "") + ")");
    }

    private static boolean hasFolder(Path root, Path file, String name) {
        Path relative = root.relativize(file).getParent();
        return relative != null
                && StreamSupport.stream(relative.spliterator(), false)
                        .anyMatch(p -> p.toString().equals(name));
    }

    /** {@code train-00000-of-00001.parquet}, {@code train.jsonl}, or anything under a folder {@code train}. */
    private static boolean ofSplit(Path root, Path file, String split) {
        String name = file.getFileName().toString();
        return name.startsWith(split + "-")
                || name.startsWith(split + ".")
                || name.startsWith(split + "_")
                || hasFolder(root, file, split);
    }

    private static Stream<Path> dataFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk
                    .filter(p -> !root.relativize(p).toString().startsWith("."))
                    .filter(Files::isRegularFile)
                    .filter(p -> EXTENSIONS.stream()
                            .anyMatch(e -> p.getFileName()
                                    .toString()
                                    .toLowerCase(Locale.ROOT)
                                    .endsWith(e)))
                    .sorted()
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw DatasetFile.unreadable(root, e);
        }
    }

    private static Optional<Path> firstArrowFile(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().endsWith(".arrow"))
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            throw DatasetFile.unreadable(root, e);
        }
    }

    /**
     * The {@code datasets} library's cache files are Arrow IPC streams; Apache Arrow Java would read
     * them but needs {@code --add-opens java.base/java.nio} on every JVM that runs bench, so the user
     * converts them once instead.
     */
    private static IllegalArgumentException arrowFile(String what, Path arrow) {
        String parquet = arrow.toString().replaceFirst("\\.arrow$", ".parquet");
        return new IllegalArgumentException(what + " (the datasets library's own cache), which TokenPulse does not"
                + " read; convert it to Parquet and give that: python3 -c \"import datasets;"
                + " datasets.Dataset.from_file('" + arrow + "').to_parquet('" + parquet + "')\"");
    }
}
