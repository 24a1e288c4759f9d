package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.publish.RecordSink;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;

/**
 * What every request of a shard's run shares.
 *
 * @param runId the run's id
 * @param shardIndex this shard
 * @param anchor the schedule start, for offsets and epoch times
 * @param sink where records go
 * @param tally the run's counters
 * @param tokenizer counts output tokens when the server reports none
 * @param counting runs that counting off the I/O threads (a long output takes the tokenizer
 *     milliseconds, which would delay the arrival stamps of the other streams of that thread)
 * @param keepGeneratedText put the generated text into RequestFinished
 * @param onEnd called once per request when its stream ended (permit release, progress)
 * @param requestModel the model request {@code i} names (its --lora-modules adapter, else the target's)
 * @param firstTokens told of each request's time to first token as it arrives
 * @param inputAudioSeconds the seconds of audio the backend sends for a prompt (RTFx's numerator; 0 without audio)
 */
record RunContext(
        String runId,
        int shardIndex,
        Anchor anchor,
        RecordSink sink,
        RunTally tally,
        Tokenizer tokenizer,
        Executor counting,
        boolean keepGeneratedText,
        Runnable onEnd,
        IntFunction<String> requestModel,
        FirstTokenListener firstTokens,
        ToDoubleFunction<Prompt> inputAudioSeconds) {

    /** The same context with another {@code onEnd}. */
    RunContext endingWith(Runnable otherOnEnd) {
        return new RunContext(
                runId,
                shardIndex,
                anchor,
                sink,
                tally,
                tokenizer,
                counting,
                keepGeneratedText,
                otherOnEnd,
                requestModel,
                firstTokens,
                inputAudioSeconds);
    }
}
