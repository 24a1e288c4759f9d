package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextCapTest {
    private static final int MAX_BYTES = 1000;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "short text kept as is            | a   | 10   | false",
                "exactly the bound kept           | a   | 1000 | false",
                "one byte over is cut             | a   | 1001 | true",
                "3-byte chars over the bound      | €   | 400  | true",
                "4-byte chars (surrogate pairs)   | 😀  | 300  | true",
            })
    void textOverTheBoundIsCutAtACharacterWithAMarker(String why, String unit, int repeat, boolean cut) {
        String text = unit.repeat(repeat);
        RequestEvent event = finished(text);

        RequestEvent capped = new TextCap(MAX_BYTES).apply(event);
        String kept = ((RequestFinished) capped.getEvent()).getGeneratedText();

        assertThat(capped != event).isEqualTo(cut);
        if (!cut) {
            assertThat(kept).isEqualTo(text);
            return;
        }
        int totalBytes = text.getBytes(StandardCharsets.UTF_8).length;
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(MAX_BYTES);
        String body = kept.substring(0, kept.indexOf("\n[tokenpulse"));
        assertThat(text).startsWith(body);
        assertThat(body.length() % unit.length()).as("no character split").isZero();
        assertThat(kept)
                .endsWith(String.format(
                        "[tokenpulse: generated text truncated, %d of %d UTF-8 bytes kept]",
                        body.getBytes(StandardCharsets.UTF_8).length, totalBytes));
        // The original record is not changed: the caller may still hold it.
        assertThat(((RequestFinished) event.getEvent()).getGeneratedText()).isEqualTo(text);
    }

    private static RequestEvent finished(String text) {
        return new RequestEvent(
                "run",
                0,
                0,
                "id",
                RequestFinished.newBuilder()
                        .setSuccess(true)
                        .setHttpStatus(200)
                        .setError("")
                        .setPromptLen(1)
                        .setOutputTokens(1)
                        .setChunkEvents(1)
                        .setScheduledOffsetNs(0)
                        .setPermitOffsetNs(0)
                        .setSentOffsetNs(0)
                        .setConnectNs(0)
                        .setFirstNs(1L)
                        .setLastNs(1L)
                        .setFinishedOffsetNs(1)
                        .setGeneratedText(text)
                        .build());
    }
}
