/**
 * The command line of every Sluice entry point, on picocli: how a usage error is worded and exits, {@code --help} on
 * every command. Depends on picocli only; the commands themselves live with their process or tool.
 */
package io.sluice.common.cli;
