package io.tokenpulse.platform.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Fills every field of a generated class from its schema, so a test covers each class without
 * writing out dozens of fields by hand and keeps covering fields added later. Values are finite
 * and distinct per field position; {@code branch} picks which side of each union is filled, so
 * branch 0 and 1 give e.g. a RunStarted and a RunFinished event.
 */
final class AvroSamples {
    private AvroSamples() {}

    static <T extends SpecificRecord> T filled(Class<T> type, int branch) {
        SpecificData model = SpecificData.getForClass(type);
        return type.cast(value(model, model.getSchema(type), branch, 1));
    }

    private static Object value(SpecificData model, Schema schema, int branch, int seed) {
        return switch (schema.getType()) {
            case RECORD -> {
                Object record = model.newRecord(null, schema);
                for (Schema.Field field : schema.getFields()) {
                    model.setField(
                            record,
                            field.name(),
                            field.pos(),
                            value(model, field.schema(), branch, seed + field.pos()));
                }
                yield record;
            }
            case UNION -> {
                List<Schema> types = schema.getTypes().stream()
                        .filter(t -> t.getType() != Schema.Type.NULL)
                        .toList();
                yield value(model, types.get(branch % types.size()), branch, seed);
            }
            case ARRAY -> {
                List<Object> items = new ArrayList<>();
                items.add(value(model, schema.getElementType(), branch, seed));
                items.add(value(model, schema.getElementType(), branch, seed + 1));
                yield items;
            }
            case MAP -> Map.of("key-" + seed, value(model, schema.getValueType(), branch, seed));
            case ENUM -> model.createEnum(schema.getEnumSymbols().get(0), schema);
            case STRING -> "text-" + seed;
            case INT -> seed;
            case LONG -> 1_000_000_000_000L + seed;
            case DOUBLE -> seed + 0.25;
            case FLOAT -> seed + 0.5f;
            case BOOLEAN -> seed % 2 == 0;
            case NULL -> null;
            case BYTES, FIXED ->
                throw new IllegalArgumentException(
                        "no sample for " + schema.getType() + " yet: the TokenPulse schemas have none");
        };
    }

    /** Avro's own JSON rendering of a record, for comparing with what another client decoded. */
    static String json(Object record) {
        return GenericData.get().toString(record);
    }
}
