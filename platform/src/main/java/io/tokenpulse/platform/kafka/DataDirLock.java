package io.tokenpulse.platform.kafka;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One broker per data dir. Kafka's own {@code .lock} comes too late: in combined mode the controller
 * reads the metadata log before the log manager takes the lock, and a second broker reading a log that
 * the first is writing halts its whole JVM on the "corrupt" records it sees. The OS drops this lock
 * when the process dies, so a killed broker's dir can be started again at once.
 */
final class DataDirLock implements AutoCloseable {

    static final String LOCK_FILE = "tokenpulse-kafka.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirLock acquire(Path dataDir) {
        Path lockFile = dataDir.resolve(LOCK_FILE);
        FileChannel channel;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "Cannot use Kafka data dir " + dataDir + " (" + e.getMessage() + "): pass a writable --data-dir",
                    e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by another broker in this same JVM
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("Cannot lock " + lockFile + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new IllegalArgumentException("Kafka data dir " + dataDir
                    + " is in use by another running broker: stop it or pass another --data-dir");
        }
        return new DataDirLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // Closing the channel below releases it anyway.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing left to release: the lock goes with the channel.
        }
    }
}
