// React renders ditto-react's output in one test. @types/react is not installed: it declares empty
// DOM interfaces globally, which breaks the DOM types Playwright's evaluate callbacks use.
declare module 'react';
declare module 'react-dom/server';
