package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the commands over files start from: {@code -v}/{@code -q} and {@code --plugin-path}, the
 * command's output and problem streams, and the library with the backends they load.
 */
final class Context {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Mixin
    Plugins plugins;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    Reporter reporter() {
        return new Reporter(err(), verbosity);
    }

    /** The library over the class path's and {@code --plugin-path}'s backends, telling {@code -v}'s log. */
    Mcountkit mcountkit() {
        return plugins.mcountkit(spec).withLog(verbosity.detailLog());
    }

    /** What a command does with one file's result: reports it, and says whether the file is fine. */
    interface Done<R> {
        boolean fine(Path file, R result) throws IOException;
    }

    /**
     * {@code work} on each file in turn, then {@code done} with its result; a file {@code work}
     * refuses gets its one line. Returns the exit status: 0 when {@code done} found every file fine.
     */
    <R> int eachFile(List<Path> files, Function<Path, R> work, Done<R> done) throws IOException {
        Reporter reporter = reporter();
        int bad = 0;
        for (Path file : files) {
            R result;
            try {
                result = work.apply(file);
            } catch (InputException e) {
                reporter.failed(file, e.getMessage());
                bad++;
                continue;
            }
            bad += done.fine(file, result) ? 0 : 1;
        }
        out().flush();
        return bad == 0 ? 0 : 1;
    }
}
