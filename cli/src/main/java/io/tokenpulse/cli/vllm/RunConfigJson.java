package io.tokenpulse.cli.vllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.schemas.python.PythonFloat;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every option of a run as one JSON object for the RunStarted record, so analysts see exactly how a
 * run was configured. Secret values are redacted as in the Namespace line.
 */
public final class RunConfigJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunConfigJson() {}

    /** The options in the Namespace line's order. */
    public static String of(CommandSpec spec, java.util.List<String> order) {
        Map<String, Object> options = new LinkedHashMap<>();
        PythonNamespace.options(spec, order)
                .forEach(o -> options.put(
                        PythonNamespace.attributeName(o), redact(PythonNamespace.attributeName(o), o.getValue())));
        try {
            return JSON.writeValueAsString(options);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the run configuration as JSON", e);
        }
    }

    private static Object redact(String name, Object value) {
        if (value == null) {
            return null;
        }
        if (Redaction.isSecretKey(name)) {
            return Redaction.REDACTED;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), redact(String.valueOf(k), v)));
            return copy;
        }
        if (value instanceof Double d && (d.isInfinite() || d.isNaN())) {
            return PythonFloat.repr(d);
        }
        return value;
    }
}
