package org.mcountkit.core.output;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import org.mcountkit.core.FunctionDiff;

/**
 * Writes {@code diff --format json}: {@code {"schemaVersion","listedA","listedB","changes":[{"kind",
 * "function","linesA":[...],"linesB":[...],"reason"}]}}, {@code kind} being {@code added},
 * {@code removed} or {@code renamed}, {@code reason} the other side's for an added or removed one.
 */
public final class FunctionDiffJsonWriter {

    /** A writer holds no state. */
    public FunctionDiffJsonWriter() {}

    public void write(FunctionDiff diff, Writer out) throws IOException {
        JsonOutput.write(out, json -> {
            JsonOutput.startReport(json);
            json.writeNumberField("listedA", diff.listedA());
            json.writeNumberField("listedB", diff.listedB());
            json.writeArrayFieldStart("changes");
            for (FunctionDiff.Change c : diff.changes()) {
                json.writeStartObject();
                json.writeStringField("kind", c.kind().name().toLowerCase(Locale.ROOT));
                json.writeStringField("function", c.function());
                strings(json, "linesA", c.linesA());
                strings(json, "linesB", c.linesB());
                if (c.kind() != FunctionDiff.Kind.RENAMED) {
                    json.writeStringField("reason", c.reason());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private static void strings(com.fasterxml.jackson.core.JsonGenerator json, String field, List<String> values)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (String v : values) {
            json.writeString(v);
        }
        json.writeEndArray();
    }
}
