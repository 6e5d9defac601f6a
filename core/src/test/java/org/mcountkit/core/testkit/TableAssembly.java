package org.mcountkit.core.testkit;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.core.Table;
import org.mcountkit.core.output.TableAsmWriter;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;

/**
 * A table as {@code table --format asm} writes it, put through the machine's own assembler: the
 * check that the assembly form gives the bytes and relocations of the object form.
 */
public final class TableAssembly {

    private TableAssembly() {}

    /**
     * Writes {@code table}'s assembly to {@code dir/NAME.s} and assembles it with {@code compiler}
     * (the cross gcc and its flags) to {@code dir/NAME.o}, which it returns.
     */
    public static Path assemble(Path dir, String name, Table table, List<String> compiler) throws IOException {
        StringWriter asm = new StringWriter();
        new TableAsmWriter().write(table, asm);
        Path source = Samples.write(dir, name + ".s", asm.toString());
        Path object = dir.resolve(name + ".o");
        List<String> command = new ArrayList<>(compiler);
        command.addAll(List.of("-c", source.toString(), "-o", object.toString()));
        Command.check(dir, command);
        return object;
    }
}
