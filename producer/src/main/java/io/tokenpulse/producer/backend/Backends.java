package io.tokenpulse.producer.backend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry of backends by {@code --backend} name, holding vLLM's list in vLLM's order.
 * Adding a backend takes its class and one line here.
 */
public final class Backends {

    private static final Set<String> NOT_YET_SUPPORTED =
            Set.of("tgi", "deepspeed-mii", "openai-audio", "tensorrt-llm");

    /** Every name vLLM's {@code --backend} accepts, in the order its help lists them. */
    private static final List<String> NAMES = List.of("tgi", "vllm", "lmdeploy", "deepspeed-mii",
            "openai", "openai-chat", "openai-audio", "tensorrt-llm", "scalellm", "sglang", "llama.cpp");

    private static final Map<String, Backend> SUPPORTED = supported();

    private Backends() {
    }

    private static Map<String, Backend> supported() {
        Map<String, Backend> byName = new LinkedHashMap<>();
        for (String name : List.of("vllm", "lmdeploy", "openai", "scalellm", "sglang")) {
            byName.put(name, new OpenAiCompletionsBackend(name, false));
        }
        // vLLM turns llama.cpp's prompt cache off so repeated prompts are really prefilled.
        byName.put("llama.cpp", new OpenAiCompletionsBackend("llama.cpp", true));
        byName.put("openai-chat", new OpenAiChatBackend());
        return Map.copyOf(byName);
    }

    /**
     * The backend registered under {@code name}.
     *
     * @throws IllegalArgumentException for a name vLLM knows but this project does not support
     *     yet, or for an unknown name (the message lists the known names)
     */
    public static Backend get(String name) {
        Backend backend = SUPPORTED.get(name);
        if (backend != null) {
            return backend;
        }
        if (NOT_YET_SUPPORTED.contains(name)) {
            throw new IllegalArgumentException("backend " + name + " is not supported yet; use one of "
                    + String.join(", ", supportedNames()));
        }
        throw new IllegalArgumentException("unknown --backend " + name + "; known backends: "
                + String.join(", ", NAMES));
    }

    /** Every backend name, supported or not yet, in vLLM's order (for the flag's help). */
    public static List<String> names() {
        return NAMES;
    }

    /** The names {@link #get} returns a backend for, in vLLM's order. */
    public static List<String> supportedNames() {
        return NAMES.stream().filter(SUPPORTED::containsKey).toList();
    }
}
