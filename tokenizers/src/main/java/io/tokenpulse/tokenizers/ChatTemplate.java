package io.tokenpulse.tokenizers;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jinjava.javax.el.CompositeELResolver;

/**
 * A Hugging Face chat template rendered with Jinjava, set up to behave like the Jinja2 environment
 * transformers uses ({@code trim_blocks}, {@code lstrip_blocks}, {@code raise_exception}).
 *
 * <p>Jinjava is the maintained Jinja engine on Maven Central, but it is not Jinja2: Python string
 * methods come from {@link PythonStringMethods}, and {@link #adaptToJinjava} rewrites the two
 * Jinja2 forms its parser lacks. Thread-safe: Jinjava builds a fresh interpreter per render.
 */
final class ChatTemplate {

    // Jinja2's reverse slice: Jinjava's parser has no slices at all.
    private static final Pattern REVERSE_SLICE = Pattern.compile("\\[\\s*::\\s*-1\\s*]");
    // namespace(a=x, b=messages|length - 1): Jinjava binds `=` tighter than `-`, so the value of a
    // keyword argument gets parentheses.
    private static final Pattern NAMESPACE_CALL = Pattern.compile("namespace\\(([^()]*)\\)");
    private static final Pattern KEYWORD_ARGUMENT = Pattern.compile("^\\s*([A-Za-z_]\\w*)\\s*=(?!=)\\s*(.+?)\\s*$");

    private final String ownerId;
    private final String source;
    private final Map<String, Object> specialTokens;
    private Jinjava jinjava;

    /**
     * @param ownerId the tokenizer id, for error messages
     * @param source the template text from {@code tokenizer_config.json} or {@code chat_template.jinja}
     * @param specialTokens template variables such as {@code bos_token}, {@code eos_token}
     */
    ChatTemplate(String ownerId, String source, Map<String, String> specialTokens) {
        this.ownerId = ownerId;
        this.source = adaptToJinjava(source);
        this.specialTokens = Map.copyOf(specialTokens);
    }

    /**
     * The engine, built at the first render: building it loads a few hundred classes (~0.2 s of CPU at
     * start-up) that a run without chat prompts never needs. It parses nothing, so no error waits for it.
     */
    private synchronized Jinjava jinjava() {
        if (jinjava == null) {
            CompositeELResolver resolver = new CompositeELResolver();
            resolver.add(new PythonStringMethods());
            resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
            JinjavaConfig config = JinjavaConfig.newBuilder()
                    .withTrimBlocks(true)
                    .withLstripBlocks(true)
                    .withElResolver(resolver)
                    .withLegacyOverrides(LegacyOverrides.newBuilder()
                            // Jinja2 semantics for {{- -}}, `a|length - 1` and loops over None values.
                            .withUseNaturalOperatorPrecedence(true)
                            .withParseWhitespaceControlStrictly(true)
                            .withUseTrimmingForNotesAndExpressions(true)
                            .withKeepNullableLoopValues(true)
                            .withAllowAdjacentTextNodes(true)
                            .build())
                    .build();
            jinjava = new Jinjava(config);
            jinjava.getGlobalContext()
                    .registerFunction(new ELFunctionDefinition(
                            "", "raise_exception", TemplateFunctions.class, "raiseException", String.class));
        }
        return jinjava;
    }

    String render(List<ChatMessage> messages, boolean addGenerationPrompt) {
        List<Map<String, Object>> messageMaps = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("role", message.role());
            map.put("content", message.content());
            messageMaps.add(map);
        }
        Map<String, Object> context = new HashMap<>(specialTokens);
        context.put("messages", messageMaps);
        context.put("add_generation_prompt", addGenerationPrompt);
        RenderResult result = jinjava().renderForResult(source, context);
        for (TemplateError error : result.getErrors()) {
            if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
                throw new IllegalStateException("chat template of tokenizer '" + ownerId + "' failed at line "
                        + error.getLineno() + ": " + rootMessage(error));
            }
        }
        return result.getOutput();
    }

    /** The innermost cause says what went wrong (raise_exception's text); Jinjava's own message only where. */
    private static String rootMessage(TemplateError error) {
        Throwable cause = error.getException();
        while (cause != null && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause != null && cause.getMessage() != null ? cause.getMessage() : error.getMessage();
    }

    /** Rewrites the Jinja2 forms Jinjava cannot parse into equivalent forms it can. */
    static String adaptToJinjava(String template) {
        String reversed = REVERSE_SLICE.matcher(template).replaceAll("|reverse");
        Matcher call = NAMESPACE_CALL.matcher(reversed);
        StringBuilder out = new StringBuilder();
        while (call.find()) {
            List<String> arguments = new ArrayList<>();
            for (String argument : call.group(1).split(",")) {
                Matcher keyword = KEYWORD_ARGUMENT.matcher(argument);
                arguments.add(keyword.matches() ? keyword.group(1) + "=(" + keyword.group(2) + ")" : argument.strip());
            }
            call.appendReplacement(out, Matcher.quoteReplacement("namespace(" + String.join(", ", arguments) + ")"));
        }
        call.appendTail(out);
        return out.toString();
    }
}
