package io.tokenpulse.producer.http;

/**
 * Result of {@link StreamingHttpClient#warmUp}: connections opened ahead of a run so that its
 * requests find idle ones instead of paying for connects (reported by the run as "warmed up").
 *
 * @param opened     connections now idle in the pool
 * @param failed     connects that failed
 * @param elapsedNs  time the warm-up took
 * @param firstError reason of the first failed connect, empty when none failed
 */
public record WarmUp(int opened, int failed, long elapsedNs, String firstError) {}
