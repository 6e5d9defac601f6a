package org.mcountkit.core.backends;

import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Machine;

/** The architecture backends found on a class path with {@link ServiceLoader}. */
public final class Backends {

    private final List<ArchBackend> backends;

    public Backends(List<ArchBackend> backends) {
        this.backends = List.copyOf(backends);
    }

    /**
     * Every backend listed in {@code META-INF/services} visible to {@code loader}.
     *
     * @throws InputException when a listed backend cannot be loaded
     */
    public static Backends load(ClassLoader loader) {
        return new Backends(providers(loader, "a backend on the class path", type -> true));
    }

    /**
     * The class path's backends, then those of each jar in {@code directories}, in name order.
     *
     * @throws InputException naming the directory that cannot be read or the jar that is broken
     */
    public static Backends withPlugins(List<Path> directories) {
        ClassLoader base = Backends.class.getClassLoader();
        List<ArchBackend> found = new ArrayList<>(load(base).all());
        for (Path jar : PluginJars.in(directories)) {
            PluginJars.requireJar(jar);
            URLClassLoader loader = new URLClassLoader(new URL[] {PluginJars.url(jar)}, base);
            // The jar's loader also sees the class path's backends: keep only the jar's own.
            List<ArchBackend> own = providers(loader, jar.toString(), type -> type.getClassLoader() == loader);
            if (own.isEmpty()) {
                // Each jar has a class loader of its own, so a jar without a backend can serve
                // none: the directory holds something other than what the user meant.
                throw new InputException(
                        Failure.BAD_PLUGIN_PATH,
                        jar + ": no backend in it (no META-INF/services/" + ArchBackend.class.getName() + ")");
            }
            found.addAll(own);
        }
        return new Backends(found);
    }

    private static List<ArchBackend> providers(ClassLoader loader, String where, Predicate<Class<?>> keep) {
        List<ArchBackend> found = new ArrayList<>();
        try {
            Iterator<ServiceLoader.Provider<ArchBackend>> providers =
                    ServiceLoader.load(ArchBackend.class, loader).stream().iterator();
            while (providers.hasNext()) {
                ServiceLoader.Provider<ArchBackend> provider = providers.next();
                if (keep.test(provider.type())) {
                    found.add(provider.get());
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new InputException(Failure.BAD_PLUGIN_PATH, where + ": not a usable backend: " + reason(e));
        }
        return found;
    }

    /** ServiceLoader's message without the interface's name it starts with, plus its cause's. */
    private static String reason(ServiceConfigurationError e) {
        String message = String.valueOf(e.getMessage());
        String prefix = ArchBackend.class.getName() + ": ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        }
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null) {
            message += ": " + cause.getMessage();
        }
        return message;
    }

    /** Backends visible to the class loader that loaded mcountkit. */
    public static Backends load() {
        return load(Backends.class.getClassLoader());
    }

    public List<ArchBackend> all() {
        return backends;
    }

    /** Every machine variant the backends list, in discovery order. */
    public List<Machine> machines() {
        List<Machine> machines = new ArrayList<>();
        for (ArchBackend backend : backends) {
            for (Abi abi : backend.abis()) {
                machines.add(new Machine(
                        abi.machineName(),
                        abi.machine().toString(),
                        abi.elfClass().name(),
                        abi.endian().label(),
                        abi.hooks().stream().sorted().toList(),
                        abi.relocationName(abi.tableRelocation()),
                        abi.rela(),
                        backend.name(),
                        source(backend)));
            }
        }
        return machines;
    }

    private static String source(ArchBackend backend) {
        CodeSource source = backend.getClass().getProtectionDomain().getCodeSource();
        if (source == null) {
            return "unknown";
        }
        try {
            return Path.of(source.getLocation().toURI()).toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return source.getLocation().toString();
        }
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

    private static String describe(ElfTarget target) {
        return target.machine() + ", " + target.elfClass() + " "
                + target.endian().label() + "-endian";
    }

    /** The backend for this target, or an error naming the machine. */
    public ArchBackend require(ElfTarget target) {
        return find(target)
                .orElseThrow(() -> new InputException(
                        Failure.UNSUPPORTED_MACHINE,
                        "unsupported machine " + describe(target) + ": no backend on the class path handles it"));
    }
}
