package io.tokenpulse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tokenpulse} command: lists its subcommands and prints usage when given none. */
@Command(
    name = "tokenpulse",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Benchmark LLM serving endpoints the way vLLM's serving benchmark does, as a Kafka telemetry pipeline.",
    subcommands = {CommandLine.HelpCommand.class})
public final class TokenPulse implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }

  /** The configured command line, shared by {@link #main} and the tests. */
  static CommandLine newCommandLine() {
    return new CommandLine(new TokenPulse());
  }
}
