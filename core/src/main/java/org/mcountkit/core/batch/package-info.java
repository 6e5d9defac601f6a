/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * Runs a command over many files on a pool of threads.
 */
package org.mcountkit.core.batch;
