package org.mcountkit.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.mcountkit.core.Mcountkit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code serve}: the build server behind {@code mcountkit-recordmcount}. */
@Command(
        name = "serve",
        exitCodeList = {
            "0:The server stopped after --idle seconds without a call.",
            "1:The server could not start.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit serve --state \"$XDG_RUNTIME_DIR/mcountkit/server\" --idle 60"},
        description = {
            "Answer mcountkit-recordmcount calls from one JVM until idle (started by that script;"
                    + " rarely run by hand).",
            "Listens on a loopback port and writes PORT TOKEN PID to --state, in a folder only this"
                    + " user can reach; each call is `mcountkit recordmcount ARGS` in the caller's folder."
        })
final class ServeCommand extends CommandHelp implements Callable<Integer> {

    /** How long a stopping server waits for the calls it has taken (a call on a large file takes seconds). */
    private static final Duration DRAIN = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--state",
            required = true,
            paramLabel = "FILE",
            description = "Where to publish the port and token.")
    Path state;

    @Option(
            names = "--idle",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "Stop after this long without a call (default: ${DEFAULT-VALUE}).")
    long idleSeconds;

    @Override
    public Integer call() throws InterruptedException {
        RecordServer server;
        try {
            server = RecordServer.start(
                    Mcountkit.withClassPathBackends(), state, Duration.ofSeconds(idleSeconds), JarStamp.ofRunningJar());
        } catch (IOException e) {
            spec.commandLine().getErr().println("mcountkit: serve: " + e.getMessage());
            return 1;
        }
        // SIGTERM (a logout, kill): the JVM runs this hook while the other threads go on, so the
        // calls already taken finish their files, remove their temporary directories and are
        // answered, instead of stopping mid-write and leaving both behind.
        Thread drain = new Thread(() -> {
            server.stop();
            try {
                server.awaitStopped(DRAIN);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(drain);
        server.serve();
        try {
            Runtime.getRuntime().removeShutdownHook(drain);
        } catch (IllegalStateException e) {
            // Shutting down already: the hook is running.
        }
        return 0;
    }
}
