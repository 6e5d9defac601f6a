package org.mcountkit.consumer;

import java.nio.file.Path;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.slf4j.helpers.NOPLogger;

/**
 * Records one object as docs/library.md shows, and says which module each part came from.
 * {@code ModulePathTest} compiles it with javac and runs it with {@code java --module-path ...
 * -m org.mcountkit.consumer/org.mcountkit.consumer.RecordOnModulePath FILE}.
 */
public final class RecordOnModulePath {

    private RecordOnModulePath() {}

    public static void main(String[] args) {
        // withLog takes an slf4j Logger: the module reads slf4j through core's requires transitive.
        Mcountkit mcountkit = Mcountkit.withClassPathBackends().withLog(NOPLogger.NOP_LOGGER);
        System.out.println("core: " + Mcountkit.class.getModule().getName());
        // A backend's own module-info provides it (an automatic module's META-INF/services would too).
        mcountkit.backends().forEach(b -> {
            Module module = b.getClass().getModule();
            System.out.println("backend: " + module.getName()
                    + (module.getDescriptor().isAutomatic() ? ", automatic" : ", declared"));
        });
        FileReport report = mcountkit.record(Path.of(args[0]), RecordOptions.DEFAULT);
        for (CallSite site : report.sites()) {
            System.out.println(site.section() + "+0x" + Long.toHexString(site.offset()) + " " + site.function());
        }
        System.out.println("recorded: " + report.changed());
    }
}
