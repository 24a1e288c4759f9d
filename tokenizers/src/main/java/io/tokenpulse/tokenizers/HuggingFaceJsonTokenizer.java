package io.tokenpulse.tokenizers;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Hugging Face {@code tokenizer.json} run by the Rust {@code tokenizers} library through DJL's
 * binding (the native library ships inside DJL's jar, so nothing is downloaded), with the chat
 * template of the {@code tokenizer_config.json} or {@code chat_template.jinja} beside it.
 */
final class HuggingFaceJsonTokenizer implements Tokenizer {

    private static final String DJL_TRACKING = "OPT_OUT_TRACKING";
    private static final List<String> TEMPLATE_TOKENS = List.of("bos_token", "eos_token", "pad_token", "unk_token");

    private final String id;
    private final HuggingFaceTokenizer djl;
    private final TokenizerJsonSummary summary;
    private final int numSpecialTokensToAdd;
    private final ChatTemplate chatTemplate;

    private HuggingFaceJsonTokenizer(
            String id, HuggingFaceTokenizer tokenizer, TokenizerJsonSummary summary, ChatTemplate chatTemplate) {
        this.id = id;
        this.djl = tokenizer;
        this.summary = summary;
        this.chatTemplate = chatTemplate;
        // What encoding adds to an empty sequence is exactly what num_special_tokens_to_add() counts.
        this.numSpecialTokensToAdd = tokenizer.encode("", true, false).getIds().length;
    }

    /** Loads {@code tokenizerJson}; its directory may hold the chat template. */
    static HuggingFaceJsonTokenizer load(String id, Path tokenizerJson) throws IOException {
        // Else DJL asks the EC2 metadata service over HTTP at every load, to report its use: a benchmark
        // sends nothing but its requests, and the call cost CPU and wall time at every start.
        if (System.getenv(DJL_TRACKING) == null && System.getProperty(DJL_TRACKING) == null) {
            System.setProperty(DJL_TRACKING, "true");
        }
        HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.builder()
                .optTokenizerPath(tokenizerJson)
                // DJL defaults to truncating at 512 tokens and padding; a benchmark needs neither.
                .optTruncation(false)
                .optPadding(false)
                .optAddSpecialTokens(false)
                .build();
        TokenizerJsonSummary summary = TokenizerJsonSummary.read(tokenizerJson);
        ChatTemplate template =
                readChatTemplate(id, tokenizerJson.toAbsolutePath().getParent()).orElse(null);
        return new HuggingFaceJsonTokenizer(id, tokenizer, summary, template);
    }

    private static Optional<ChatTemplate> readChatTemplate(String id, Path dir) throws IOException {
        Path configFile = dir.resolve("tokenizer_config.json");
        JsonNode config = Files.isRegularFile(configFile)
                ? new ObjectMapper().readTree(configFile.toFile())
                : new ObjectMapper().createObjectNode();
        Map<String, String> tokens = new HashMap<>();
        for (String name : TEMPLATE_TOKENS) {
            JsonNode token = config.path(name);
            // Either "<s>" or an AddedToken object {"content": "<s>", ...}.
            String content =
                    token.isTextual() ? token.asText() : token.path("content").asText(null);
            if (content != null) {
                tokens.put(name, content);
            }
        }
        // transformers prefers a separate chat_template.jinja when a repository has one.
        Path jinjaFile = dir.resolve("chat_template.jinja");
        if (Files.isRegularFile(jinjaFile)) {
            return Optional.of(new ChatTemplate(id, Files.readString(jinjaFile), tokens));
        }
        JsonNode template = config.path("chat_template");
        if (template.isTextual()) {
            return Optional.of(new ChatTemplate(id, template.asText(), tokens));
        }
        // Some configs carry several named templates; "default" is the one apply_chat_template uses.
        for (JsonNode named : template) {
            if ("default".equals(named.path("name").asText())) {
                return Optional.of(new ChatTemplate(id, named.path("template").asText(), tokens));
            }
        }
        return Optional.empty();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public int[] encode(String text) {
        long[] ids = djl.encode(text, false, false).getIds();
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = (int) ids[i];
        }
        return out;
    }

    @Override
    public String decode(int[] ids) {
        long[] wide = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            wide[i] = ids[i];
        }
        return djl.decode(wide, false);
    }

    @Override
    public int vocabSize() {
        return summary.vocabSize();
    }

    @Override
    public Set<Integer> specialTokenIds() {
        return summary.specialTokenIds();
    }

    @Override
    public int numSpecialTokensToAdd() {
        return numSpecialTokensToAdd;
    }

    @Override
    public boolean hasChatTemplate() {
        return chatTemplate != null;
    }

    @Override
    public String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt) {
        if (chatTemplate == null) {
            throw new IllegalStateException("tokenizer '" + id + "' has no chat template; pass --tokenizer with a "
                    + "tokenizer_config.json that has one");
        }
        return chatTemplate.render(messages, addGenerationPrompt);
    }
}
