package org.mcountkit.core;

import java.util.Optional;

/**
 * Options of {@code patch}: {@code mode}, NOP or CALL; {@code tableOnly}: only the sites the
 * file's tables name; {@code target}: the symbol {@code CALL} calls instead of the hook (empty for
 * the hook); with {@code NOP}, calls to it are accepted as old bytes too.
 */
public record PatchOptions(PatchMode mode, boolean tableOnly, Optional<String> target) {}
