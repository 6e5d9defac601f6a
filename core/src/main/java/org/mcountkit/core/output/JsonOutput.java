package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.Writer;

/**
 * The one way mcountkit writes a JSON document: pretty-printed, ended by a newline, and leaving
 * the writer open for its owner (Jackson would otherwise close it with the generator, and the
 * newline after the document would be lost).
 */
final class JsonOutput {

    private static final JsonFactory FACTORY =
            JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** Writes a document to {@code out}, then the newline, and flushes. */
    interface Document {
        void writeTo(JsonGenerator json) throws IOException;
    }

    private JsonOutput() {}

    static void write(Writer out, Document document) throws IOException {
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            document.writeTo(json);
        }
        out.write(System.lineSeparator());
        out.flush();
    }
}
