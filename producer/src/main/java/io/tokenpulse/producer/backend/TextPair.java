package io.tokenpulse.producer.backend;

/**
 * The two texts a rerank (query, document) or score ({@code text_1}, {@code text_2}) request compares,
 * made from one dataset prompt: its first half and its second half, cut at the space nearest the middle.
 * vLLM's {@code random-rerank} dataset draws a query of half the input length and documents of the
 * other half; halving any dataset's prompt gives the same shape (one document per request, its
 * {@code --random-batch-size} 1 default) from every dataset, so {@code --dataset-name random
 * --random-input-len N} sends about N tokens per request as it does for embeddings.
 *
 * @param first the query or {@code text_1}
 * @param second the document or {@code text_2}
 */
record TextPair(String first, String second) {

    /**
     * {@code prompt} cut in two at the whitespace nearest its middle (at the middle itself when it has
     * none); a prompt of fewer than two characters is both texts, so neither is ever empty unless the
     * prompt is.
     */
    static TextPair of(String prompt) {
        if (prompt.length() < 2) {
            return new TextPair(prompt, prompt);
        }
        int middle = prompt.length() / 2;
        int cut = -1;
        for (int distance = 0; distance < middle && cut < 0; distance++) {
            if (Character.isWhitespace(prompt.charAt(middle - distance))) {
                cut = middle - distance;
            } else if (middle + distance < prompt.length()
                    && Character.isWhitespace(prompt.charAt(middle + distance))) {
                cut = middle + distance;
            }
        }
        if (cut < 0) {
            return new TextPair(prompt.substring(0, middle), prompt.substring(middle));
        }
        String first = prompt.substring(0, cut).strip();
        String second = prompt.substring(cut).strip();
        if (first.isEmpty() || second.isEmpty()) {
            return new TextPair(prompt.substring(0, middle), prompt.substring(middle));
        }
        return new TextPair(first, second);
    }
}
