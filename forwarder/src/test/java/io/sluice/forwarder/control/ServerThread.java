package io.sluice.forwarder.control;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Runs a {@link ControlServer} poll loop on its own thread, as the forwarder's control thread will; closing stops
 * the loop and waits for it, so the channel can be unmapped safely afterwards.
 */
public final class ServerThread implements AutoCloseable
{
    private final ControlServer server;
    private final CommandHandler handler;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    public ServerThread(final ControlServer server, final CommandHandler handler)
    {
        this.server = server;
        this.handler = handler;
        thread = new Thread(this::run, "control");
        thread.setDaemon(true);
        thread.start();
    }

    private void run()
    {
        final IdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 100_000);
        try
        {
            while (running)
            {
                idle.idle(server.poll(handler, 10));
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
    }

    public boolean isRunning()
    {
        return thread.isAlive() && failure == null;
    }

    ControlServer server()
    {
        return server;
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping the control thread", ex);
        }
        if (thread.isAlive())
        {
            throw new AssertionError("control thread did not stop");
        }
        if (failure != null)
        {
            throw new AssertionError("control thread failed", failure);
        }
    }
}
