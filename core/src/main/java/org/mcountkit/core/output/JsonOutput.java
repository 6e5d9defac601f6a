package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;

/**
 * The one way mcountkit writes JSON: a document pretty-printed, or a JSON Lines record on one
 * line, each ended by a newline, leaving the writer open for its owner (Jackson would otherwise
 * close it with the generator, and the newline after the document would be lost).
 */
final class JsonOutput {

    /**
     * The version of the report schemas ({@code list}, {@code table --format json}, {@code
     * verify}), in every file's object; it changes only when a field changes meaning or goes.
     */
    static final int SCHEMA_VERSION = 1;

    private static final JsonFactory FACTORY =
            JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** Writes a document to {@code out}, then the newline, and flushes. */
    interface Document {
        void writeTo(JsonGenerator json) throws IOException;
    }

    /** Writes one item of an array as its object. */
    interface Item<T> {
        void writeTo(JsonGenerator json, T item) throws IOException;
    }

    private JsonOutput() {}

    /**
     * Writes an address as the unsigned number it is: a kernel address such as 0xffffffff81000000
     * is negative as a Java long, and a join by address with another tool's output needs its value.
     */
    static void writeAddressField(JsonGenerator json, String name, long address) throws IOException {
        json.writeFieldName(name);
        json.writeNumber(Long.toUnsignedString(address));
    }

    /** Opens a report's object with its {@link #SCHEMA_VERSION}, the field every report starts with. */
    static void startReport(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeNumberField("schemaVersion", SCHEMA_VERSION);
    }

    /** Opens the report of one file: its schema version, the file under {@code field}, and its machine. */
    static void startReport(JsonGenerator json, String field, Path file, String machine) throws IOException {
        startReport(json);
        json.writeStringField(field, file.toString());
        json.writeStringField("machine", machine);
    }

    static void write(Writer out, Document document) throws IOException {
        write(out, document, true);
    }

    /** Writes a document that is an array of one object per item, in order. */
    static <T> void writeArray(Writer out, List<T> items, Item<? super T> item) throws IOException {
        write(out, json -> {
            json.writeStartArray();
            for (T t : items) {
                item.writeTo(json, t);
            }
            json.writeEndArray();
        });
    }

    /** Writes one JSON Lines record: the document on a single line, then the newline, and flushes. */
    static void writeLine(Writer out, Document document) throws IOException {
        write(out, document, false);
    }

    private static void write(Writer out, Document document, boolean pretty) throws IOException {
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            if (pretty) {
                json.useDefaultPrettyPrinter();
            }
            document.writeTo(json);
        }
        // JSON Lines ends every record with \n, whatever the platform.
        out.write(pretty ? System.lineSeparator() : "\n");
        out.flush();
    }
}
