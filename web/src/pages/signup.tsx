import { AuthForm } from '../components/auth-form.js';
import { mountPage } from '../components/layout.js';

mountPage('/signup', <AuthForm mode="signup" />);
