package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendLogFileIT {

    @TempDir
    Path dir;

    @Test
    void everyStreamedEventOfADeterministicServerIsLoggedWithItsDueAndSendTime() throws Exception {
        Path file = dir.resolve("sends.csv");
        long before = System.currentTimeMillis();
        try (SendLogFile log = SendLogFile.open(file);
                SimulatorServer server = SimulatorServer.start(
                        SimulatorConfig.deterministic(Duration.ofMillis(50), Duration.ofMillis(20))
                                .withSendListener(log))) {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(server.baseUri().resolve("/v1/completions"))
                                    .header("content-type", "application/json")
                                    .header("x-request-id", "bench-0,a")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":5,\"stream\":true}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo(SendLogFile.HEADER);
        // five token events, then [DONE] in the same write as the last
        assertThat(lines).hasSize(1 + 6);
        long[][] rows = lines.stream()
                .skip(1)
                .map(line -> {
                    assertThat(line).startsWith("\"bench-0,a\",");
                    String[] cells = line.substring("\"bench-0,a\",".length()).split(",");
                    return new long[] {
                        Long.parseLong(cells[0]),
                        Long.parseLong(cells[1]),
                        Long.parseLong(cells[2]),
                        Long.parseLong(cells[3]),
                        Long.parseLong(cells[4])
                    };
                })
                .toArray(long[][]::new);
        // Every row names when the request was received, on the wall clock as sent_unix_ns: the first
        // event was due exactly the TTFT after it.
        long unixMinusNanoNs = rows[0][3] - rows[0][2];
        for (long[] row : rows) {
            assertThat(row[4]).as("received_unix_ns").isEqualTo(rows[0][4]);
        }
        assertThat(rows[0][1] - (rows[0][4] - unixMinusNanoNs)).isEqualTo(50_000_000L);
        for (int i = 0; i < rows.length; i++) {
            assertThat(rows[i][0]).as("event number").isEqualTo(i);
            assertThat(rows[i][2] - rows[i][1]).as("lateness of event %d", i).isBetween(0L, 50_000_000L);
            assertThat(rows[i][3] / 1_000_000)
                    .as("wall clock of event %d", i)
                    .isBetween(before, System.currentTimeMillis());
        }
        // the deterministic model's due times are exactly one gap apart
        for (int i = 1; i < 5; i++) {
            assertThat(rows[i][1] - rows[i - 1][1]).isEqualTo(20_000_000L);
        }
        assertThat(rows[5][1]).as("[DONE] is due with the last token").isEqualTo(rows[4][1]);
    }

    @Test
    void aFreeTextRequestIdIsQuotedAsCsvDoes() {
        assertThat(SendLogFile.csvField("plain-1")).isEqualTo("plain-1");
        assertThat(SendLogFile.csvField("a,b")).isEqualTo("\"a,b\"");
        assertThat(SendLogFile.csvField("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    }
}
