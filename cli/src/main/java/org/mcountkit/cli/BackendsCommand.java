package org.mcountkit.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.mcountkit.core.Machine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code backends}: what the loaded backends handle, before a user tries a file. */
@Command(
        name = "backends",
        exitCodeList = {"0:The machines are listed.", "2:A wrong command line, or a --plugin-path that cannot be used."
        },
        footer = {"  mcountkit backends", "  mcountkit backends --plugin-path ~/mcountkit-plugins"},
        description = {
            "List every machine the loaded backends (built-in and plugins) handle: its name, e_machine,"
                    + " ELF class, byte order, table relocation, hooks, backend and where it was loaded from."
        })
final class BackendsCommand extends CommandHelp implements Callable<Integer> {

    private static final String ROW = "%-11s %-17s %-5s %-6s %-20s %-24s %-6s %s%n";

    @Spec
    CommandSpec spec;

    @Mixin
    Plugins plugins;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.printf(ROW, "MACHINE", "E_MACHINE", "CLASS", "ORDER", "TABLE", "HOOKS", "NAME", "FROM");
        for (Machine m : plugins.mcountkit(spec).machines()) {
            out.printf(
                    ROW,
                    m.name(),
                    m.elfMachine(),
                    m.elfClass(),
                    m.byteOrder(),
                    m.tableRelocation() + (m.rela() ? " RELA" : " REL"),
                    String.join(",", m.hooks()),
                    m.backend(),
                    m.source());
        }
        out.flush();
        return 0;
    }
}
