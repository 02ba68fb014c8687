import { render } from 'preact';

function Home() {
  return <h1>qrfarm</h1>;
}

render(<Home />, document.getElementById('app')!);
