package io.tokenpulse.producer.dataset;

import java.io.IOException;
import java.nio.file.Path;

/** The {@code --dataset-path} checks every file dataset shares, with the same one-line messages. */
final class DatasetFile {

    private DatasetFile() {
    }

    /**
     * @param example what a path for this dataset looks like, for the message
     * @throws IllegalArgumentException when {@code path} is null
     */
    static Path required(Path path, String datasetName, String example) {
        if (path == null) {
            throw new IllegalArgumentException("the " + datasetName + " dataset needs --dataset-path " + example);
        }
        return path;
    }

    /** A missing, unreadable or directory path, named with what went wrong. */
    static IllegalArgumentException unreadable(Path path, IOException e) {
        return new IllegalArgumentException("--dataset-path " + path + " cannot be read ("
                + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", e);
    }
}
