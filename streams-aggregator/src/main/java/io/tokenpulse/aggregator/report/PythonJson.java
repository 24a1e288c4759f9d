package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.tokenpulse.schemas.python.PythonFloat;
import java.io.IOException;
import java.util.Map;

/**
 * A Jackson writer that prints what Python's {@code json.dump(obj, f)} prints with its defaults, so
 * vLLM's result files and ours compare byte for byte: separators {@code ", "} and {@code ": "} on one
 * line, floats as {@code repr}, non-finite floats as {@code Infinity}/{@code NaN}, and
 * {@code ensure_ascii} escapes ({@code \u00e9}, lower-case hex, DEL escaped too).
 */
final class PythonJson {

    private PythonJson() {}

    static final ObjectWriter WRITER = mapper().writer(new PythonSeparators());

    private static ObjectMapper mapper() {
        JsonFactory factory = new JsonFactoryBuilder()
                .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
                .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                .characterEscapes(new PythonEscapes())
                .build();
        SimpleModule floats = new SimpleModule("python-floats");
        floats.addSerializer(Double.class, new PythonFloatSerializer());
        floats.addSerializer(Double.TYPE, new PythonFloatSerializer());
        return JsonMapper.builder(factory).addModule(floats).build();
    }

    /** {@code json.dump} writes floats with {@code float.__repr__}, and inf/nan as bare words. */
    private static final class PythonFloatSerializer extends JsonSerializer<Double> {
        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value.isNaN()) {
                gen.writeRawValue("NaN");
            } else if (value.isInfinite()) {
                gen.writeRawValue(value > 0 ? "Infinity" : "-Infinity");
            } else {
                gen.writeNumber(PythonFloat.repr(value));
            }
        }
    }

    /** Writes a map's entries into the enclosing object, in the map's order (see {@code @JsonUnwrapped}). */
    static final class InlineEntries extends JsonSerializer<Map<String, ?>> {
        @Override
        public void serialize(Map<String, ?> entries, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            for (Map.Entry<String, ?> entry : entries.entrySet()) {
                provider.defaultSerializeField(entry.getKey(), entry.getValue(), gen);
            }
        }

        @Override
        public boolean isUnwrappingSerializer() {
            return true;
        }
    }

    /** {@code json.dump}'s default separators on one line: {@code ", "} and {@code ": "}. */
    private static final class PythonSeparators extends MinimalPrettyPrinter {
        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator gen) throws IOException {
            gen.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator gen) throws IOException {
            gen.writeRaw(", ");
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator gen) throws IOException {
            gen.writeRaw(", ");
        }
    }

    /** {@code ensure_ascii} also escapes DEL (0x7f), which JSON itself allows raw. */
    private static final class PythonEscapes extends CharacterEscapes {
        private final int[] ascii;

        PythonEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii[0x7f] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }

    /** vLLM saves {@code request_rate} as the string "inf" when it is infinite, else as a float. */
    static final class RequestRateText extends JsonSerializer<Double> {
        @Override
        public void serialize(Double rate, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (rate.isInfinite()) {
                gen.writeString("inf");
            } else {
                gen.writeNumber(PythonFloat.repr(rate));
            }
        }
    }
}
