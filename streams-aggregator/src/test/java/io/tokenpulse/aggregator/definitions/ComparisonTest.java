package io.tokenpulse.aggregator.definitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    private static final List<Definition> ALL = Definitions.parse(Definitions.known());

    /*
     * The issue's shape in miniature (run()): 20 requests of 8 events after a TTFT of 100 + 10·i² ms,
     * their gaps 10 ms but one 60 ms stall each (another request's prefill). TTFT agrees where the
     * tools read the same event; GuideLLM's TPOT carries TTFT/N; vLLM's pooled ITL P99 is the stall,
     * a per-request mean spreads it over 7 gaps.
     */
    @Test
    void theIssuesShapeComesOut() {
        Comparison c = Comparison.of("r", Optional.empty(), run(), ALL);
        ToolScores vllm = c.scores().get(0);
        ToolScores guidellm = c.scores().get(1);
        ToolScores aiperf = c.scores().get(2);
        assertEquals(
                vllm.get(ScoreRow.TTFT_MEAN).getAsDouble(),
                aiperf.get(ScoreRow.TTFT_MEAN).getAsDouble(),
                1e-9);
        assertEquals(
                vllm.get(ScoreRow.TTFT_P99).getAsDouble(),
                aiperf.get(ScoreRow.TTFT_P99).getAsDouble(),
                1e-9);
        // GuideLLM's TPOT = (TTFT + 7 gaps)/8, vLLM's = 7 gaps/7: larger by about TTFT/N
        double ttftOverN = vllm.get(ScoreRow.TTFT_MEAN).getAsDouble() / 8;
        double excess = guidellm.get(ScoreRow.TPOT_MEAN).getAsDouble()
                - vllm.get(ScoreRow.TPOT_MEAN).getAsDouble();
        assertTrue(Math.abs(excess - ttftOverN) < 0.25 * ttftOverN, excess + " vs TTFT/N " + ttftOverN);
        assertTrue(vllm.get(ScoreRow.ITL_P99).getAsDouble()
                > guidellm.get(ScoreRow.ITL_P99).getAsDouble());
        assertTrue(vllm.get(ScoreRow.ITL_P99).getAsDouble()
                > aiperf.get(ScoreRow.ITL_P99).getAsDouble());
        assertTrue(aiperf.get(ScoreRow.TPOT_MEAN).isEmpty(), "AIPerf reports no TPOT");

        Comparison.Difference tpot = difference(c, ScoreRow.TPOT_MEAN);
        assertEquals("guidellm", tpot.highTool());
        assertTrue(tpot.why().contains("TTFT included"), tpot.why());
        Comparison.Difference itl = difference(c, ScoreRow.ITL_P99);
        assertEquals("vllm", itl.highTool());
        assertTrue(itl.why().contains("pooled"), itl.why());
        Comparison.Difference ttftP99 = difference(c, ScoreRow.TTFT_P99);
        assertEquals("guidellm", ttftP99.highTool());
        assertTrue(ttftP99.why().contains("nearest rank"), ttftP99.why());
        assertTrue(c.differences().stream().noneMatch(d -> d.row() == ScoreRow.TTFT_MEAN), "TTFT means agree");
    }

    @Test
    void formatsCarryTheTableAndTheDifferences() throws Exception {
        Comparison c = Comparison.of("r1", Optional.of("1 of 20 request metrics"), run(), ALL);
        String markdown = ComparisonFormat.MARKDOWN.render(c);
        assertTrue(markdown.contains("| metric | vllm | guidellm | aiperf | sglang | inference-perf |"), markdown);
        assertTrue(markdown.contains("Incomplete run"), markdown);
        assertTrue(markdown.contains("- **TPOT mean (ms)**: guidellm "), markdown);
        String csv = ComparisonFormat.CSV.render(c);
        assertTrue(csv.startsWith("# run r1 is incomplete"), csv);
        assertTrue(csv.contains("metric,key,vllm,guidellm,aiperf,sglang,inference-perf,differs_by,why\n"), csv);
        assertEquals(2 + ScoreRow.values().length, csv.lines().count());
        JsonNode json = new ObjectMapper().readTree(ComparisonFormat.JSON.render(c));
        assertEquals("r1", json.get("run_id").asText());
        assertEquals(ScoreRow.values().length, json.get("rows").size());
        assertTrue(json.get("rows")
                .get(ScoreRow.TPOT_MEAN.ordinal())
                .get("values")
                .get("aiperf")
                .isNull());
        assertFalse(json.get("differences").isEmpty());
    }

    @Test
    void unknownNamesFailWithTheKnownOnes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Definitions.parse("vllm,genai-perf"));
        assertEquals(
                "unknown tool 'genai-perf' in --as; known: vllm,guidellm,aiperf,sglang,inference-perf", e.getMessage());
        IllegalArgumentException f = assertThrows(IllegalArgumentException.class, () -> ComparisonFormat.parse("html"));
        assertEquals("unknown --format 'html'; known: markdown,csv,json", f.getMessage());
        assertEquals(
                List.of("aiperf", "vllm"),
                Definitions.parse("AIPerf, vllm,aiperf").stream()
                        .map(Definition::name)
                        .toList());
    }

    private static TimedRun run() {
        List<TimedRequest> requests = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long sentMs = i * 50L;
            long[] chunksMs = new long[8];
            chunksMs[0] = sentMs + 100 + i * i * 10L;
            for (int c = 1; c < 8; c++) {
                chunksMs[c] = chunksMs[c - 1] + (c == 4 ? 60 : 10);
            }
            requests.add(FixtureRun.request(sentMs, chunksMs, new boolean[8], chunksMs[7] + 1, 8, 16, true));
        }
        return new TimedRun(0, requests.get(19).endNs(), requests);
    }

    private static Comparison.Difference difference(Comparison c, ScoreRow row) {
        return c.differences().stream()
                .filter(d -> d.row() == row)
                .findFirst()
                .orElseThrow(() -> new AssertionError(row + " is not among " + c.differences()));
    }
}
