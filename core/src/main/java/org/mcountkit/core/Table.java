package org.mcountkit.core;

import java.util.List;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.RelocationInfo;

/**
 * A table made from one or more inputs of one machine: the entries in output order, how the
 * machine relocates a table word ({@code rela}, {@code relocationType}, and how it packs
 * {@code r_info}), and per input the sites
 * that went into the table with what was said about them.
 */
public record Table(
        ElfTarget target,
        String machine,
        boolean rela,
        int relocationType,
        RelocationInfo relocationInfo,
        List<TableEntry> entries,
        List<FileReport> inputs) {}
