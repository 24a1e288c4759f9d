package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tokenpulse.producer.parquet.ParquetCodecs;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.parquet.HadoopFreeReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The rows of a Parquet file as JSON objects, the JSON DuckDB's {@code to_json} gives of each row
 * (which {@link HfLayout} and {@link HfMedia} were written against): structs as objects with every
 * field (null where unset), lists and repeated fields as arrays, maps as objects, strings, numbers
 * and booleans as themselves, dates and timestamps as DuckDB's text, and binary values in DuckDB's
 * text form of a BLOB ({@link HfMedia#blob} reads it back). Read with parquet-java, without Hadoop.
 */
final class ParquetRows {

    /** Receives each row with its number in the file (from 0). */
    interface Consumer {
        void row(int position, ObjectNode row);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The Julian day of 1970-01-01: INT96 timestamps count days from the Julian epoch. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588;

    private ParquetRows() {}

    /**
     * Reads the rows at {@code positions} (all when null) of the columns {@code projection} keeps of
     * the file's schema; row groups without a wanted row are not read.
     *
     * @throws IOException when the file is not Parquet that parquet-java reads (what the consumer
     *     throws goes through as it is)
     */
    static void read(Path file, UnaryOperator<MessageType> projection, Set<Integer> positions, Consumer consumer)
            throws IOException {
        ParquetReadOptions options = HadoopFreeReadOptions.of(ParquetCodecs.INSTANCE);
        // The constructor: open(...) has overloads over Hadoop's types, which javac would need to see.
        try (ParquetFileReader reader = fileStep(() -> new ParquetFileReader(new LocalInputFile(file), options))) {
            MessageType fileSchema = reader.getFileMetaData().getSchema();
            MessageType schema = projection.apply(fileSchema);
            reader.setRequestedSchema(schema);
            MessageColumnIO columns = fileStep(() -> new ColumnIOFactory().getColumnIO(schema, fileSchema, true));
            Rows rows = new Rows(schema);
            int position = 0;
            for (BlockMetaData group : reader.getRowGroups()) {
                int first = position;
                int count = Math.toIntExact(group.getRowCount());
                position += count;
                if (positions != null && positions.stream().noneMatch(p -> p >= first && p < first + count)) {
                    reader.skipNextRowGroup();
                    continue;
                }
                PageReadStore pages = fileStep(reader::readNextRowGroup);
                RecordReader<ObjectNode> records = fileStep(() -> columns.getRecordReader(pages, rows));
                for (int i = 0; i < count; i++) {
                    ObjectNode row = fileStep(records::read);
                    if (positions == null || positions.contains(first + i)) {
                        consumer.row(first + i, row);
                    }
                }
            }
        }
    }

    /** One step of parquet-java's reading. */
    private interface FileStep<T> {
        T run() throws IOException;
    }

    /** Runs {@code step}, its unchecked failures (a corrupt page, a bad footer) as the IOException they are. */
    private static <T> T fileStep(FileStep<T> step) throws IOException {
        try {
            return step.run();
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * {@code type} with one leaf left, a value's rather than a blob's where it has one: enough to
     * know whether a row has a value there without reading the blobs.
     */
    static Type presenceOnly(Type type) {
        if (type.isPrimitive()) {
            return type;
        }
        GroupType group = type.asGroupType();
        Type kept = group.getFields().stream()
                .filter(ParquetRows::hasNonBlobLeaf)
                .findFirst()
                .orElse(group.getType(0));
        return group.withNewFields(presenceOnly(kept));
    }

    private static boolean hasNonBlobLeaf(Type type) {
        if (type.isPrimitive()) {
            PrimitiveType.PrimitiveTypeName name = type.asPrimitiveType().getPrimitiveTypeName();
            return type.getLogicalTypeAnnotation() != null
                    || (name != PrimitiveType.PrimitiveTypeName.BINARY
                            && name != PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
        }
        return type.asGroupType().getFields().stream().anyMatch(ParquetRows::hasNonBlobLeaf);
    }

    /**
     * DuckDB's text form of a BLOB: printable ASCII as itself but for the backslash and the quotes,
     * every other byte as {@code \xHH}.
     */
    static String blobText(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"') {
                text.append((char) c);
            } else {
                text.append("\\x").append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
                text.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return text.toString();
    }

    /** Receives one value of a field. */
    private interface Sink {
        void accept(JsonNode value);
    }

    private static Converter converter(Type type, Sink sink) {
        if (type.isPrimitive()) {
            return new Leaf(type.asPrimitiveType(), sink);
        }
        GroupType group = type.asGroupType();
        LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
        boolean oneRepeated = group.getFieldCount() == 1 && group.getType(0).isRepetition(Type.Repetition.REPEATED);
        if (oneRepeated && annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            return new ListGroup(group, sink);
        }
        if (oneRepeated
                && !group.getType(0).isPrimitive()
                && (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                        || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)) {
            return new MapGroup(group.getType(0).asGroupType(), sink);
        }
        return new Struct(group, sink);
    }

    private static final class Rows extends RecordMaterializer<ObjectNode> {
        private final Struct root;
        private ObjectNode row;

        Rows(MessageType schema) {
            root = new Struct(schema, value -> row = (ObjectNode) value);
        }

        @Override
        public ObjectNode getCurrentRecord() {
            return row;
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }

    /** A group as an object of all its fields; a repeated field as an array. */
    private static final class Struct extends GroupConverter {
        private final GroupType type;
        private final Sink sink;
        private final Converter[] fields;
        private ObjectNode current;

        Struct(GroupType type, Sink sink) {
            this.type = type;
            this.sink = sink;
            fields = new Converter[type.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                Type field = type.getType(i);
                String name = field.getName();
                fields[i] = converter(
                        field,
                        field.isRepetition(Type.Repetition.REPEATED)
                                ? value -> ((ArrayNode) current.get(name)).add(value)
                                : value -> current.set(name, value));
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fields[fieldIndex];
        }

        @Override
        public void start() {
            current = NODES.objectNode();
            for (Type field : type.getFields()) {
                current.set(
                        field.getName(),
                        field.isRepetition(Type.Repetition.REPEATED) ? NODES.arrayNode() : NullNode.getInstance());
            }
        }

        @Override
        public void end() {
            sink.accept(current);
        }
    }

    /**
     * A {@code LIST} group as an array: its repeated field is the element, or wraps it (the
     * three-level form), by the format's rules for older writers' two-level lists.
     */
    private static final class ListGroup extends GroupConverter {
        private final Sink sink;
        private final Converter repeated;
        private ArrayNode current;
        private JsonNode element;

        ListGroup(GroupType list, Sink sink) {
            this.sink = sink;
            Type repeatedType = list.getType(0);
            boolean isElement = repeatedType.isPrimitive()
                    || repeatedType.asGroupType().getFieldCount() != 1
                    || repeatedType.getName().equals("array")
                    || repeatedType.getName().equals(list.getName() + "_tuple");
            if (isElement) {
                repeated = converter(repeatedType, value -> current.add(value));
            } else {
                Converter inner = converter(repeatedType.asGroupType().getType(0), value -> element = value);
                repeated = new GroupConverter() {
                    @Override
                    public Converter getConverter(int fieldIndex) {
                        return inner;
                    }

                    @Override
                    public void start() {
                        element = NullNode.getInstance();
                    }

                    @Override
                    public void end() {
                        current.add(element);
                    }
                };
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            current = NODES.arrayNode();
        }

        @Override
        public void end() {
            sink.accept(current);
        }
    }

    /** A {@code MAP} group as an object, its keys as text (as DuckDB's {@code to_json} writes a map). */
    private static final class MapGroup extends GroupConverter {
        private final Sink sink;
        private final GroupConverter entry;
        private ObjectNode current;
        private String key;
        private JsonNode value;

        MapGroup(GroupType keyValue, Sink sink) {
            this.sink = sink;
            Converter keys = converter(keyValue.getType(0), k -> key = k.asText());
            Converter values = keyValue.getFieldCount() > 1 ? converter(keyValue.getType(1), v -> value = v) : null;
            entry = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return fieldIndex == 0 ? keys : values;
                }

                @Override
                public void start() {
                    key = null;
                    value = NullNode.getInstance();
                }

                @Override
                public void end() {
                    current.set(key, value);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return entry;
        }

        @Override
        public void start() {
            current = NODES.objectNode();
        }

        @Override
        public void end() {
            sink.accept(current);
        }
    }

    /** One column's values, by its physical and logical type. */
    private static final class Leaf extends PrimitiveConverter {
        private final PrimitiveType type;
        private final LogicalTypeAnnotation logical;
        private final Sink sink;

        Leaf(PrimitiveType type, Sink sink) {
            this.type = type;
            this.logical = type.getLogicalTypeAnnotation();
            this.sink = sink;
        }

        @Override
        public void addBoolean(boolean value) {
            sink.accept(BooleanNode.valueOf(value));
        }

        @Override
        public void addFloat(float value) {
            sink.accept(FloatNode.valueOf(value));
        }

        @Override
        public void addDouble(double value) {
            sink.accept(DoubleNode.valueOf(value));
        }

        @Override
        public void addInt(int value) {
            if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                sink.accept(TextNode.valueOf(LocalDate.ofEpochDay(value).toString()));
            } else if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
                sink.accept(TextNode.valueOf(time(TimeUnit.MILLISECONDS.toMicros(value))));
            } else if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                sink.accept(DecimalNode.valueOf(BigDecimal.valueOf(value, decimal.getScale())));
            } else if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
                    && !integer.isSigned()) {
                sink.accept(LongNode.valueOf(Integer.toUnsignedLong(value)));
            } else {
                sink.accept(NODES.numberNode(value));
            }
        }

        @Override
        public void addLong(long value) {
            if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
                long micros = micros(value, timestamp.getUnit());
                sink.accept(TextNode.valueOf(timestamp(micros) + (timestamp.isAdjustedToUTC() ? "+00" : "")));
            } else if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time) {
                sink.accept(TextNode.valueOf(time(micros(value, time.getUnit()))));
            } else if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                sink.accept(DecimalNode.valueOf(BigDecimal.valueOf(value, decimal.getScale())));
            } else if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
                    && !integer.isSigned()) {
                sink.accept(NODES.numberNode(new BigInteger(Long.toUnsignedString(value))));
            } else {
                sink.accept(LongNode.valueOf(value));
            }
        }

        @Override
        public void addBinary(Binary value) {
            sink.accept(binary(value));
        }

        private JsonNode binary(Binary value) {
            if (type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96) {
                ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                long nanos = bytes.getLong();
                long day = Integer.toUnsignedLong(bytes.getInt()) - JULIAN_EPOCH_DAY;
                return TextNode.valueOf(timestamp(TimeUnit.DAYS.toMicros(day) + nanos / 1_000));
            }
            if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                    || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation) {
                return TextNode.valueOf(value.toStringUsingUTF8());
            }
            if (logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
                try {
                    return JSON.readTree(value.toStringUsingUTF8());
                } catch (IOException e) {
                    return TextNode.valueOf(value.toStringUsingUTF8());
                }
            }
            if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
                return DecimalNode.valueOf(new BigDecimal(new BigInteger(value.getBytes()), decimal.getScale()));
            }
            if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
                ByteBuffer bytes = value.toByteBuffer();
                return TextNode.valueOf(new UUID(bytes.getLong(), bytes.getLong()).toString());
            }
            return TextNode.valueOf(blobText(value.getBytes()));
        }

        private static long micros(long value, LogicalTypeAnnotation.TimeUnit unit) {
            return switch (unit) {
                case MILLIS -> TimeUnit.MILLISECONDS.toMicros(value);
                case MICROS -> value;
                case NANOS -> TimeUnit.NANOSECONDS.toMicros(value);
            };
        }

        /** DuckDB's text of a TIMESTAMP: {@code 2024-01-15 10:00:00}, a fraction of a second when it has one. */
        private static String timestamp(long micros) {
            LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), 0, ZoneOffset.UTC);
            return time.toLocalDate() + " " + time(Math.floorMod(micros, 86_400_000_000L));
        }

        /** DuckDB's text of a TIME: {@code 10:00:00}, or {@code 10:00:00.5} (trailing zeros dropped). */
        private static String time(long microsOfDay) {
            LocalTime time = LocalTime.ofNanoOfDay(microsOfDay * 1_000);
            String text = String.format("%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
            long fraction = microsOfDay % 1_000_000;
            return fraction == 0
                    ? text
                    : text + "." + String.format("%06d", fraction).replaceFirst("0+$", "");
        }
    }
}
