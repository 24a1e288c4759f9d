package io.tokenpulse.producer.dataset;

import java.io.IOException;
import java.net.URI;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;

/**
 * The URL an image of a dataset entry is sent as. {@code http(s):} and {@code data:} URLs go as
 * written, as vLLM sends them; a local file (a path relative to the dataset file's folder, or a
 * {@code file:} URL) goes as a {@code data:} URL of its bytes, because vLLM's {@code file://} URLs
 * only work on a server that shares the client's disk and allows local media.
 */
final class ImageUrl {

    private ImageUrl() {}

    /**
     * Checks a local image before the run: it exists, is readable and has an image file name.
     *
     * @throws IllegalArgumentException naming the dataset file, the entry and the resolved path
     */
    static void check(Path datasetFile, String where, String reference) {
        if (isRemote(reference)) {
            return;
        }
        Path image = resolve(datasetFile, where, "image", reference);
        if (!Files.isRegularFile(image) || !Files.isReadable(image)) {
            throw new IllegalArgumentException("--dataset-path " + datasetFile + ": " + where + ": image '" + reference
                    + "' is not a readable file at " + image + " (relative paths start at the dataset file's folder)");
        }
        mimeType(datasetFile, where, image);
    }

    /** The URL to send: as written for remote ones, a {@code data:} URL of the file's bytes otherwise. */
    static String of(Path datasetFile, String where, String reference) {
        if (isRemote(reference)) {
            return reference;
        }
        Path image = resolve(datasetFile, where, "image", reference);
        String mimeType = mimeType(datasetFile, where, image);
        try {
            return "data:" + mimeType + ";base64," + Base64.getEncoder().encodeToString(Files.readAllBytes(image));
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "--dataset-path " + datasetFile + ": " + where + ": image " + image + " cannot be read ("
                            + e.getClass().getSimpleName() + ")",
                    e);
        }
    }

    private static boolean isRemote(String reference) {
        String lower = reference.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("data:");
    }

    /** A local file a dataset entry names: a {@code file:} URL, or a path relative to the dataset file's folder. */
    static Path resolve(Path datasetFile, String where, String kind, String reference) {
        if (reference.toLowerCase(Locale.ROOT).startsWith("file:")) {
            try {
                return Path.of(URI.create(reference));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--dataset-path " + datasetFile + ": " + where + ": " + kind + " '"
                        + reference + "' is not a valid file URL; write file:///absolute/path or a plain path");
            }
        }
        Path folder = datasetFile.toAbsolutePath().getParent();
        return folder.resolve(reference);
    }

    private static String mimeType(Path datasetFile, String where, Path image) {
        String type = URLConnection.guessContentTypeFromName(image.getFileName().toString());
        if (type == null || !type.startsWith("image/")) {
            throw new IllegalArgumentException("--dataset-path " + datasetFile + ": " + where + ": " + image
                    + " is not named as an image (.jpg, .png, .gif, .webp, ...)");
        }
        return type;
    }
}
