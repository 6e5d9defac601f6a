package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.mcountkit.core.KernelRelease;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** What {@code functions} and {@code explain} may be told about the kernel when its image does not say. */
final class KernelOptions {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The kernel's .config (else the image's own, with CONFIG_IKCONFIG; else each option's machine"
                    + " default, said in the summary).")
    Path config;

    @Option(
            names = "--release",
            paramLabel = "X.Y",
            converter = ReleaseConverter.class,
            description = "The kernel's release, when the image has no linux_banner.")
    KernelRelease release;

    Optional<Path> config() {
        return Optional.ofNullable(config);
    }

    Optional<KernelRelease> release() {
        return Optional.ofNullable(release);
    }

    /** {@code 6.12}: a bad value is picocli's usage error. */
    static final class ReleaseConverter implements ITypeConverter<KernelRelease> {
        @Override
        public KernelRelease convert(String value) {
            return KernelRelease.parse(value);
        }
    }
}
