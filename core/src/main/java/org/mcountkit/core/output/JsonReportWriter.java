package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Outcome;

/**
 * Writes reports as the documented JSON schema: an array with one object per file (or one JSON
 * Lines record per file), {@code {"schemaVersion","file","machine","elfClass","byteOrder",
 * "sites":[...],"diagnostics":[...]}}. Sites of linked images also carry their run-time {@code
 * address}.
 */
public final class JsonReportWriter {

    private final boolean withAddress;

    /** @param withAddress also write each site's {@code address} (the table schema) */
    public JsonReportWriter(boolean withAddress) {
        this.withAddress = withAddress;
    }

    public void write(List<FileReport> reports, Writer out) throws IOException {
        JsonOutput.writeArray(out, reports, this::writeFile);
    }

    /**
     * Writes one object per file in input order, a file that could not be read included as
     * {@code {"file","error"}}, so a reader of the array sees every file it asked about.
     */
    public void writeOutcomes(List<Outcome> outcomes, Writer out) throws IOException {
        JsonOutput.writeArray(out, outcomes, this::writeOutcome);
    }

    /** Writes one file's object as a JSON Lines record (one line), a failure as {@code {"file","error"}}. */
    public void writeLine(Outcome outcome, Writer out) throws IOException {
        JsonOutput.writeLine(out, json -> writeOutcome(json, outcome));
    }

    private void writeOutcome(JsonGenerator json, Outcome outcome) throws IOException {
        if (outcome.isFailure()) {
            JsonOutput.startReport(json);
            json.writeStringField("file", outcome.file().toString());
            json.writeStringField("error", outcome.reason());
            json.writeEndObject();
        } else {
            writeFile(json, outcome.report());
        }
    }

    private void writeFile(JsonGenerator json, FileReport report) throws IOException {
        JsonOutput.startReport(json, "file", report.file(), report.machine());
        json.writeStringField("elfClass", report.target().elfClass().name());
        json.writeStringField("byteOrder", report.target().endian().label());
        json.writeArrayFieldStart("sites");
        for (CallSite site : report.sites()) {
            writeSite(json, site, withAddress || report.linked());
        }
        json.writeEndArray();
        json.writeArrayFieldStart("diagnostics");
        for (Diagnostic d : report.diagnostics()) {
            writeDiagnostic(json, d);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeSite(JsonGenerator json, CallSite site, boolean address) throws IOException {
        json.writeStartObject();
        json.writeStringField("section", site.section());
        json.writeNumberField("offset", site.offset());
        json.writeNumberField("length", site.length());
        if (address) {
            JsonOutput.writeAddressField(json, "address", site.address());
        }
        json.writeStringField("function", site.function());
        json.writeStringField("hook", site.hook());
        json.writeStringField("source", site.source().label());
        json.writeEndObject();
    }

    private static void writeDiagnostic(JsonGenerator json, Diagnostic d) throws IOException {
        json.writeStartObject();
        json.writeStringField("severity", d.severity().label());
        json.writeStringField("section", d.section());
        if (d.hasOffset()) {
            json.writeNumberField("offset", d.offset());
        } else {
            json.writeNullField("offset");
        }
        json.writeStringField("message", d.message());
        json.writeEndObject();
    }
}
