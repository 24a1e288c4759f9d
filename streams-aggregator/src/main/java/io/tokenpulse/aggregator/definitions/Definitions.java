package io.tokenpulse.aggregator.definitions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The tools' definitions by name ({@code rescore --as}); adding one is a class and one line here. */
public final class Definitions {

    private static final Map<String, Definition> BY_NAME = Stream.of(
                    new VllmDefinition(),
                    new GuideLlmDefinition(),
                    new AiPerfDefinition(),
                    new SglangDefinition(),
                    new InferencePerfDefinition())
            .collect(Collectors.toMap(Definition::name, Function.identity(), (a, b) -> a, LinkedHashMap::new));

    private Definitions() {}

    /** Every known name, comma-separated, in table order. */
    public static String known() {
        return String.join(",", BY_NAME.keySet());
    }

    /**
     * The definitions a comma-separated list names, in its order, each once.
     *
     * @throws IllegalArgumentException for an empty list or an unknown name; the message lists the known ones
     */
    public static List<Definition> parse(String names) {
        List<Definition> chosen = new ArrayList<>();
        for (String raw : names.split(",")) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            Definition d = BY_NAME.get(name);
            if (d == null) {
                throw new IllegalArgumentException("unknown tool '" + raw.trim() + "' in --as; known: " + known());
            }
            if (!chosen.contains(d)) {
                chosen.add(d);
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("--as names no tool; known: " + known());
        }
        return List.copyOf(chosen);
    }
}
