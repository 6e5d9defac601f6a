package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.Verification;

/**
 * Writes {@code verify --format json}: an array with one object per image (or one JSON Lines
 * record per image), {@code {"schemaVersion","file","machine","checked","zeros","clean","findings":[{"table","entryOffset","address",
 * "function","found","expected","reason"}],"outsideFunction":[...],"diagnostics":[...]}}, where
 * {@code findings} are the bad entries and {@code outsideFunction} the entries with the right
 * bytes in no function, in the same form ({@code clean} is false only for bad entries).
 */
public final class VerificationJsonWriter {

    /** A writer holds no state: one may write any number of reports. */
    public VerificationJsonWriter() {}

    public void write(List<Verification> results, Writer out) throws IOException {
        JsonOutput.writeArray(out, results, VerificationJsonWriter::writeImage);
    }

    /** Writes one image's object as a JSON Lines record (one line). */
    public void writeLine(Verification v, Writer out) throws IOException {
        JsonOutput.writeLine(out, json -> writeImage(json, v));
    }

    private static void writeImage(JsonGenerator json, Verification v) throws IOException {
        JsonOutput.startReport(json, "file", v.file(), v.machine());
        json.writeNumberField("checked", v.checked());
        json.writeNumberField("zeros", v.zeros());
        json.writeBooleanField("clean", v.clean());
        writeEntries(json, "findings", v.findings());
        writeEntries(json, "outsideFunction", v.outsideFunction());
        json.writeArrayFieldStart("diagnostics");
        for (Diagnostic d : v.diagnostics()) {
            json.writeStartObject();
            json.writeStringField("severity", d.severity().label());
            json.writeStringField("message", d.message());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeEntries(JsonGenerator json, String field, List<Verification.Finding> entries)
            throws IOException {
        json.writeArrayFieldStart(field);
        for (Verification.Finding f : entries) {
            json.writeStartObject();
            json.writeStringField("table", f.table());
            json.writeNumberField("entryOffset", f.entryOffset());
            JsonOutput.writeAddressField(json, "address", f.address());
            json.writeStringField("function", FindingText.function(f));
            json.writeStringField("found", FindingText.found(f));
            json.writeStringField("expected", FindingText.expected(f));
            json.writeStringField("reason", FindingText.reason(f));
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
