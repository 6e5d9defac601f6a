package org.mcountkit.core.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;

/**
 * Writes {@code functions --format json}: one object, {@code {"schemaVersion","image","machine",
 * "release","releaseSource","config","assumptions":[...],"summary":{...},"records":[{"address",
 * "line","symbol","offset","module","fate"}]}}, every table word in ftrace's order with its fate
 * ({@code listed}, {@code invalid}, {@code init-freed}, {@code module-init-freed}, {@code zero},
 * {@code outside-text}). Addresses are hex strings ({@code "0xffffffff81000000"}): exact and
 * unsigned in every JSON reader; a module's is its offset from the module's text.
 */
public final class FunctionListJsonWriter {

    /** A writer holds no state. */
    public FunctionListJsonWriter() {}

    public void write(FunctionList list, Writer out) throws IOException {
        JsonOutput.write(out, json -> writeList(json, list));
    }

    private static void writeList(JsonGenerator json, FunctionList list) throws IOException {
        JsonOutput.startReport(json, "image", list.image(), list.machine());
        json.writeStringField("release", list.release().toString());
        json.writeStringField("releaseSource", list.releaseSource());
        json.writeStringField("config", list.configSource());
        json.writeArrayFieldStart("assumptions");
        for (String a : list.assumptions()) {
            json.writeString(a);
        }
        json.writeEndArray();
        FunctionList.Summary s = list.summary();
        json.writeObjectFieldStart("summary");
        json.writeNumberField("tableWords", s.tableWords());
        json.writeNumberField("zeros", s.zeros());
        json.writeNumberField("outsideText", s.outsideText());
        json.writeNumberField("bootLine", s.bootLine());
        json.writeNumberField("atBoot", s.atBoot());
        json.writeNumberField("initFreed", s.initFreed());
        json.writeNumberField("afterBoot", s.afterBoot());
        json.writeNumberField("moduleRecords", s.moduleRecords());
        json.writeNumberField("moduleInitFreed", s.moduleInitFreed());
        json.writeNumberField("invalid", s.invalid());
        json.writeNumberField("total", s.total());
        json.writeNumberField("pages", s.pages());
        json.writeNumberField("groups", s.groups());
        json.writeEndObject();
        json.writeArrayFieldStart("records");
        for (FtraceRecord r : list.records()) {
            json.writeStartObject();
            json.writeStringField("address", "0x" + Long.toHexString(r.address()));
            if (r.fate().listedAtBoot()) {
                json.writeStringField("line", r.line());
            }
            if (r.symbol().isPresent()) {
                json.writeStringField("symbol", r.symbol().get());
                json.writeNumberField("offset", r.offset());
            }
            if (r.module().isPresent()) {
                json.writeStringField("module", r.module().get());
            }
            json.writeStringField("fate", r.fate().label());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
