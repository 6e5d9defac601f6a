package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.mcountkit.core.Explanation;
import org.mcountkit.core.FtraceRecord;

/**
 * Writes {@code explain --format json}, an object per function (an array of them for several):
 * {@code {"schemaVersion","function","traceable","reason",
 * "evidence":[...],"copies":[{"symbol","address","size","records":[{"address","line","fate"}]}]}},
 * addresses as hex strings.
 */
public final class ExplanationJsonWriter {

    /** A writer holds no state. */
    public ExplanationJsonWriter() {}

    /** One explanation as an object; several as an array of them. */
    public void write(List<Explanation> explanations, Writer out) throws IOException {
        if (explanations.size() == 1) {
            JsonOutput.write(out, json -> writeOne(json, explanations.get(0)));
        } else {
            JsonOutput.writeArray(out, explanations, ExplanationJsonWriter::writeOne);
        }
    }

    private static void writeOne(JsonGenerator json, Explanation e) throws IOException {
        {
            JsonOutput.startReport(json);
            json.writeStringField("function", e.function());
            json.writeBooleanField("traceable", e.traceable());
            json.writeStringField("reason", e.reason().label());
            json.writeArrayFieldStart("evidence");
            for (String line : e.evidence()) {
                json.writeString(line);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("copies");
            for (Explanation.Copy c : e.copies()) {
                json.writeStartObject();
                json.writeStringField("symbol", c.symbol());
                json.writeStringField("address", "0x" + Long.toHexString(c.address()));
                json.writeNumberField("size", c.size());
                json.writeArrayFieldStart("records");
                for (FtraceRecord r : c.records()) {
                    writeRecord(json, r);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private static void writeRecord(JsonGenerator json, FtraceRecord r) throws IOException {
        json.writeStartObject();
        json.writeStringField("address", "0x" + Long.toHexString(r.address()));
        if (r.fate().listedAtBoot()) {
            json.writeStringField("line", r.line());
        }
        json.writeStringField("fate", r.fate().label());
        json.writeEndObject();
    }
}
