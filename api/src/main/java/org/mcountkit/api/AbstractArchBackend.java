package org.mcountkit.api;

import java.util.List;

/**
 * The start every backend shares, said once: its name and its machine variants, given to the
 * constructor ({@code public X86Backend() { super("x86", ABIS); }}). A backend may implement
 * {@link ArchBackend} directly instead.
 */
public abstract class AbstractArchBackend implements ArchBackend {

    private final String name;
    private final List<Abi> abis;

    protected AbstractArchBackend(String name, List<Abi> abis) {
        this.name = name;
        this.abis = List.copyOf(abis);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<Abi> abis() {
        return abis;
    }
}
