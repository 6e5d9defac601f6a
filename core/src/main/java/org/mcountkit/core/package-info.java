/**
 * The mcountkit library's API. {@link org.mcountkit.core.Mcountkit} is the entry point; with it
 * come the options it takes ({@link org.mcountkit.core.RecordOptions},
 * {@link org.mcountkit.core.TableOptions}, {@link org.mcountkit.core.PatchOptions}), the results it
 * returns ({@link org.mcountkit.core.FileReport}, {@link org.mcountkit.core.Outcome},
 * {@link org.mcountkit.core.Table}, {@link org.mcountkit.core.Verification},
 * {@link org.mcountkit.core.PatchResult}), the exceptions it throws
 * ({@link org.mcountkit.core.InputException}, {@link org.mcountkit.core.FileInputException}), the
 * records of the {@code org.mcountkit.api} module, and the report writers of
 * {@code org.mcountkit.core.output}. The command-line front end uses nothing else (a test checks
 * its imports).
 *
 * <p>The other packages of this module ({@code elf}, {@code pipeline}, {@code postlink},
 * {@code batch}) are internal: public only so that they can call each other, and free to change.
 */
package org.mcountkit.core;
