package org.mcountkit.core.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;

/** The architecture backends found on a class path with {@link ServiceLoader}. */
public final class Backends {

    private final List<ArchBackend> backends;

    public Backends(List<ArchBackend> backends) {
        this.backends = List.copyOf(backends);
    }

    /** Every backend listed in {@code META-INF/services} visible to {@code loader}. */
    public static Backends load(ClassLoader loader) {
        List<ArchBackend> found = new ArrayList<>();
        ServiceLoader.load(ArchBackend.class, loader).forEach(found::add);
        return new Backends(found);
    }

    /** Backends visible to the class loader that loaded mcountkit. */
    public static Backends load() {
        return load(Backends.class.getClassLoader());
    }

    public List<ArchBackend> all() {
        return backends;
    }

    /**
     * The one backend for this target.
     *
     * @throws InputException when two backends claim it, naming both
     */
    public Optional<ArchBackend> find(ElfTarget target) {
        List<ArchBackend> claiming = new ArrayList<>(1);
        for (ArchBackend b : backends) {
            if (b.supports(target)) {
                claiming.add(b);
            }
        }
        if (claiming.size() > 1) {
            throw new InputException(
                    Failure.UNSUPPORTED_MACHINE,
                    "machine " + target.machine() + " is claimed by more than one backend: "
                            + claiming.stream()
                                    .map(b -> b.name() + " (" + b.getClass().getName() + ")")
                                    .collect(Collectors.joining(", ")));
        }
        return claiming.isEmpty() ? Optional.empty() : Optional.of(claiming.get(0));
    }

    /** The backend for this target, or an error naming the machine. */
    public ArchBackend require(ElfTarget target) {
        return find(target)
                .orElseThrow(() -> new InputException(
                        Failure.UNSUPPORTED_MACHINE,
                        "unsupported machine " + MachineNames.describe(target)
                                + ": no backend on the class path handles it"));
    }
}
