package io.tokenpulse.tokenizers;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import java.util.List;
import java.util.Set;

/**
 * GPT-2's byte-level BPE ({@code r50k_base}) from jtokkit, which ships the ranks in its jar: the
 * offline stand-in for {@code gpt2} and {@code facebook/opt-*}. Token counts equal the Hugging Face
 * tokenizers' (same merges); OPT numbers its ids differently (fairseq order), so ids are GPT-2's.
 */
final class TiktokenTokenizer implements Tokenizer {

    // r50k_base: ranks 0..50255 plus <|endoftext|> = 50256, as GPT-2's vocab.json.
    private static final int R50K_VOCAB_SIZE = 50257;
    private static final int END_OF_TEXT = 50256;

    private final String id;
    private final int numSpecialTokensToAdd;
    private final Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.R50K_BASE);

    /** @param numSpecialTokensToAdd 0 for GPT-2, 1 for OPT (which prepends {@code </s>}) */
    TiktokenTokenizer(String id, int numSpecialTokensToAdd) {
        this.id = id;
        this.numSpecialTokensToAdd = numSpecialTokensToAdd;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public int[] encode(String text) {
        // Ordinary: "<|endoftext|>" inside a prompt is text, never a control token.
        return encoding.encodeOrdinary(text).toArray();
    }

    @Override
    public String decode(int[] ids) {
        IntArrayList list = new IntArrayList(ids.length);
        for (int id : ids) {
            list.add(id);
        }
        return encoding.decode(list);
    }

    @Override
    public int vocabSize() {
        return R50K_VOCAB_SIZE;
    }

    @Override
    public Set<Integer> specialTokenIds() {
        return Set.of(END_OF_TEXT);
    }

    @Override
    public int numSpecialTokensToAdd() {
        return numSpecialTokensToAdd;
    }

    @Override
    public boolean hasChatTemplate() {
        return false;
    }

    @Override
    public String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) {
        throw new IllegalStateException("tokenizer '" + id + "' (offline GPT-2 BPE) has no chat template; pass "
                + "--tokenizer /path/to/dir-with-tokenizer.json whose tokenizer_config.json has one");
    }
}
