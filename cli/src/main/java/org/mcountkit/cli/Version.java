package org.mcountkit.cli;

import picocli.CommandLine;

/** Version from the jar's manifest, or "dev" when run from classes. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"mcountkit " + (version == null ? "dev" : version)};
    }
}
