/** swagger-ui-dist ships no types; the Docs page uses this much of it. */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerUIOptions {
    url: string;
    domNode: HTMLElement;
    deepLinking?: boolean;
    validatorUrl?: string | null;
    supportedSubmitMethods?: string[];
    tryItOutEnabled?: boolean;
    defaultModelsExpandDepth?: number;
    docExpansion?: 'list' | 'full' | 'none';
  }
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
declare module '*.css';
