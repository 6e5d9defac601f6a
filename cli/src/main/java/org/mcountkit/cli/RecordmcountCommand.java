package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.Mcountkit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code recordmcount}, as help and man pages show it. {@link Main} reads this command's line
 * itself, as the C tool's getopt does ({@link RecordmcountLine}), before picocli sees it; this
 * class gives it its help text and its man page, {@code mcountkit-recordmcount(1)}, which is also
 * the name of the script that sends the same line to the build server.
 */
@Command(
        name = "recordmcount",
        exitCodeList = {"0:Every file is recorded.", "1:A file failed.", "2:A wrong command line."},
        footer = {"  mcountkit recordmcount -w kernel/sched/core.o", "  mcountkit-recordmcount kernel/sched/core.o"},
        description = {
            "The kernel's scripts/recordmcount command line, exactly: record each FILE in place, as record does.",
            "Kbuild runs it once per object: copy the mcountkit-recordmcount script to scripts/recordmcount,"
                    + " its home= line naming the installation; it hands each call to one build server"
                    + " (mcountkit serve), so a call costs a few ms."
        })
final class RecordmcountCommand extends CommandHelp implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RecordmcountArguments kernelTool;

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>();
        if (kernelTool.warnUntraced) {
            args.add("-w");
        }
        args.add("--");
        kernelTool.files.forEach(f -> args.add(f.toString()));
        return Main.recordmcount(
                Mcountkit.withClassPathBackends(),
                Path.of(""),
                args,
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }
}
