package org.mcountkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.stream.Collectors;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Machine;
import org.mcountkit.core.Mcountkit;
import picocli.CommandLine;

/**
 * The project version, from {@code version.properties}, which Maven fills in at build time: the
 * shaded jar drops the modules' manifests, and tests run from classes, so neither can say it.
 */
final class Version implements CommandLine.IVersionProvider {

    static final String RESOURCE = "version.properties";

    /** The version, the runtime, and the machines of the backends on the class path. */
    @Override
    public String[] getVersion() {
        return new String[] {
            "mcountkit " + version(),
            "Java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.vendor") + ") on "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"),
            "machines: " + machines()
        };
    }

    /** The machines of the backends on the class path, as {@code --version} and {@code --help} name them. */
    static String machines() {
        try {
            return Mcountkit.withClassPathBackends().machines().stream()
                    .map(Machine::name)
                    .collect(Collectors.joining(", "));
        } catch (InputException e) {
            return "none: " + e.getMessage();
        }
    }

    static String version() {
        Properties properties = new Properties();
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: the build is broken");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
