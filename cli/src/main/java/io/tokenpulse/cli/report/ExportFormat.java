package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.tokenpulse.producer.parquet.ParquetCodecs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

/**
 * The files {@code export} writes a stored run's records to, one file per kind of record with a
 * column per field of its Avro schema (docs/export.md): Parquet (parquet-avro's writer, Snappy
 * pages, without Hadoop) or CSV with a header, nested values (lists, maps, records) as JSON text.
 */
public enum ExportFormat {
    PARQUET,
    CSV;

    /** @throws IllegalArgumentException naming the flag and the formats */
    public static ExportFormat parse(String text) {
        for (ExportFormat format : values()) {
            if (format.extension().equals(text.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        throw new IllegalArgumentException("--format must be parquet or csv, got '" + text + "'");
    }

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Writes {@code records}, all of {@code schema}, to {@code dir/name.extension} (replaced if there). */
    public Path write(Path dir, String name, Schema schema, List<? extends IndexedRecord> records) throws IOException {
        Path file = dir.resolve(name + "." + extension());
        if (this == PARQUET) {
            try (ParquetWriter<IndexedRecord> writer = AvroParquetWriter.<IndexedRecord>builder(
                            new LocalOutputFile(file))
                    .withSchema(schema)
                    // given, so that neither the model nor the codecs come from a Hadoop configuration
                    .withDataModel(GenericData.get())
                    .withConf(new PlainParquetConfiguration())
                    .withCodecFactory(ParquetCodecs.INSTANCE)
                    .withCompressionCodec(CompressionCodecName.SNAPPY)
                    // the format's three-level lists, as DuckDB, pyarrow and Spark write them
                    .config(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, "false")
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .build()) {
                for (IndexedRecord record : records) {
                    writer.write(record);
                }
            }
        } else {
            CsvSchema.Builder columns = CsvSchema.builder();
            schema.getFields().forEach(field -> columns.addColumn(field.name()));
            try (SequenceWriter writer =
                    new CsvMapper().writer(columns.build().withHeader()).writeValues(file.toFile())) {
                for (IndexedRecord record : records) {
                    List<String> row = new ArrayList<>(schema.getFields().size());
                    for (Schema.Field field : schema.getFields()) {
                        row.add(csvValue(record.get(field.pos())));
                    }
                    writer.write(row);
                }
            }
        }
        return file;
    }

    private static String csvValue(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof CharSequence || value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        return GenericData.get().toString(value); // a list, map or record as JSON
    }
}
