package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import picocli.CommandLine.Option;

/**
 * {@code --frugal}: during the load the bench process only times responses and publishes their
 * events; the in-process aggregator starts when the load ends and catches up from the topics. The
 * server on the same host then shares its cores with the client alone, at the cost of live windows,
 * gauges and dashboards, which stay empty until the load ends.
 */
public final class FrugalOption {

    public static final String NAME = "--frugal";

    @Option(
            names = NAME,
            description = "Start the in-process aggregator only when the load ends, so that during the run the"
                    + " benchmark costs the server's host only the client's CPU; live windows and dashboards"
                    + " stay empty until then.")
    public boolean frugal;

    /** With a pipeline of the user's ({@code --bootstrap-servers}) there is no in-process aggregator to defer. */
    public void validate(boolean embeddedPipeline) {
        if (frugal && !embeddedPipeline) {
            throw UserError.usage(NAME
                    + " defers the in-process aggregator; with --bootstrap-servers there is none: start"
                    + " 'tokenpulse aggregate' after the load, or under nice, instead");
        }
    }
}
