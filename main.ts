import 'reflect-metadata';
import './gateway/main.js';
