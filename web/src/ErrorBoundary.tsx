import { Component, type ReactNode } from 'react';

/**
 * Never a blank page: a render error inside shows what happened and a way to try again. "Try
 * again" renders the children afresh (their state is gone, the session and the rest of the app
 * are not); a page around it keeps working.
 */
export class ErrorBoundary extends Component<
  {
    children: ReactNode;
    what: string /** A whole page: the message is the page's main content and heading. */;
    asPage?: boolean;
  },
  { error: Error | null }
> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    const Heading = this.props.asPage ? 'h1' : 'h2';
    const message = (
      <div className="centered page-error" role="alert">
        <Heading>{this.props.what} could not be shown</Heading>
        <p>{this.state.error.message || String(this.state.error)}</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>{' '}
        <button type="button" onClick={() => window.location.reload()}>
          Reload the app
        </button>
      </div>
    );
    return this.props.asPage ? <main>{message}</main> : message;
  }
}
