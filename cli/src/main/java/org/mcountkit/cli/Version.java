package org.mcountkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The project version, from {@code version.properties}, which Maven fills in at build time: the
 * shaded jar drops the modules' manifests, and tests run from classes, so neither can say it.
 */
final class Version implements CommandLine.IVersionProvider {

    static final String RESOURCE = "version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"mcountkit " + version()};
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
