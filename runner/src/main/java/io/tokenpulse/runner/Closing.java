package io.tokenpulse.runner;

/** Closing several resources in order, each even when one before it failed. */
public final class Closing {
    private Closing() {}

    /**
     * Closes each non-null resource in order; the first failure is thrown after all were tried, with
     * the later ones suppressed in it.
     */
    public static void all(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
